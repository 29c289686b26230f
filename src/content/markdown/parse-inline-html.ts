/**
 * The inline HTML GitBook writes for inlines Markdown has no syntax for: buttons
 * (`<a href class="button primary" data-icon>` and `<button class="button …" data-action>`), icons
 * (`<i class="fa-book">:book:</i>`), mentions (`<a data-mention href>`), expressions
 * (`<code class="expression">`), emoji (`<span data-gb-custom-inline data-tag="emoji" data-code="1f44b">`),
 * and plain HTML links. Each reader takes the opening tag and the phrasing up to its closing tag.
 */
import type { PhrasingContent } from 'mdast';
import type { ParseContext } from './context.ts';
import { readAttributes } from './html.ts';
import { linkRefOf, mentionRefOf } from './refs.ts';
import type { DocumentInline } from './types.ts';

/** Plain text of phrasing content (tags dropped, entities already decoded by the parser). */
export function phrasingText(nodes: PhrasingContent[]): string {
  return nodes
    .map((node) => {
      if (node.type === 'text' || node.type === 'inlineCode') return node.value;
      if (node.type === 'html') return '';
      return 'children' in node ? phrasingText(node.children as PhrasingContent[]) : '';
    })
    .join('');
}

const FONT_AWESOME_STYLES = new Set(['fa', 'fas', 'far', 'fal', 'fad', 'fab', 'fat', 'fa-solid', 'fa-regular', 'fa-light', 'fa-duotone', 'fa-thin', 'fa-brands', 'fa-sharp']);

/** The icon an `<i class="…">` names: its last `fa-<name>` class that is not a style. */
export function iconOfClass(classes: string | undefined): string | undefined {
  const names = (classes ?? '').split(/\s+/).filter((name) => name.startsWith('fa-') && !FONT_AWESOME_STYLES.has(name));
  const last = names[names.length - 1];
  return last && /^fa-[a-z0-9-]+$/.test(last) ? last.slice(3) : undefined;
}

function buttonKind(classes: string): 'primary' | 'secondary' | undefined {
  const list = classes.split(/\s+/);
  if (!list.includes('button')) return undefined;
  return list.includes('secondary') ? 'secondary' : 'primary';
}

/**
 * The inline an HTML element stands for, from its opening tag, its name, and the phrasing inside it;
 * undefined when the element is not one GitBook writes for an inline (the caller reads it as marks or text).
 */
export function readInlineElement(name: string, openTag: string, inner: PhrasingContent[], ctx: ParseContext): DocumentInline | undefined {
  const attributes = readAttributes(openTag);
  const classes = attributes.get('class') ?? '';
  if (name === 'i') {
    const icon = iconOfClass(classes);
    return icon ? { object: 'inline', type: 'icon', data: { icon }, isVoid: true } : undefined;
  }
  if (name === 'code' && classes.split(/\s+/).includes('expression')) {
    return { object: 'inline', type: 'expression', data: { expression: phrasingText(inner) }, isVoid: true };
  }
  if (name === 'span' && attributes.has('data-gb-custom-inline') && attributes.get('data-tag') === 'emoji') {
    const code = attributes.get('data-code');
    return code && /^[0-9a-f]+(?:-[0-9a-f]+)*$/i.test(code) ? { object: 'inline', type: 'emoji', data: { code: code.toLowerCase() }, isVoid: true } : undefined;
  }
  if (name === 'button') {
    const kind = buttonKind(classes);
    if (!kind) return undefined;
    const icon = attributes.get('data-icon');
    const action = attributes.get('data-action');
    const query = attributes.get('data-query');
    return {
      object: 'inline',
      type: 'button',
      data: { ref: { kind: 'url', url: '' }, label: phrasingText(inner), kind, ...(icon ? { icon } : {}), ...(action ? { action: { action, ...(query !== undefined ? { query } : {}) } } : {}) },
      isVoid: true,
    };
  }
  if (name !== 'a') return undefined;
  const href = attributes.get('href');
  if (href === undefined) {
    // A button with nowhere to go (GitBook's "inactive" button).
    const kind = buttonKind(classes);
    return kind ? { object: 'inline', type: 'button', data: { ref: { kind: 'url', url: '' }, label: phrasingText(inner), kind }, isVoid: true } : undefined;
  }
  if (attributes.has('data-mention')) return { object: 'inline', type: 'mention', data: { ref: mentionRefOf(href, ctx.options) }, isVoid: true };
  const kind = buttonKind(classes);
  if (kind) {
    const icon = attributes.get('data-icon');
    return { object: 'inline', type: 'button', data: { ref: linkRefOf(href, ctx.options), label: phrasingText(inner), kind, ...(icon ? { icon } : {}) }, isVoid: true };
  }
  return undefined;
}
