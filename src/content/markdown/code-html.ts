/**
 * Code blocks with highlighted lines, which GitBook writes as HTML because Markdown's fences cannot mark a
 * line: `<pre class="language-yaml" data-title="openapi.yaml"><code class="lang-yaml">plain
 * <strong>highlighted
 * </strong></code></pre>`. Reading and writing.
 */
import type { Element, ElementContent } from 'hast';
import { escapeAttribute } from './html.ts';
import { parseHtmlFragment } from './parse-html-blocks.ts';
import { textNode } from './nodes.ts';
import { escapeHtmlText } from './render-html.ts';
import type { DocumentBlockCode, DocumentBlockCodeLine } from './types.ts';

function classes(element: Element): string[] {
  const value: unknown = element.properties?.className;
  return Array.isArray(value) ? value.map(String) : [];
}

/** The code block an HTML `<pre>` block holds, when it holds one and nothing else. */
export function readHtmlCode(html: string): DocumentBlockCode | undefined {
  const content = (parseHtmlFragment(html).children as ElementContent[]).filter((node) => !(node.type === 'text' && node.value.trim() === ''));
  const [pre] = content;
  if (content.length !== 1 || pre.type !== 'element' || pre.tagName !== 'pre') return undefined;
  const code = pre.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
  if (!code) return undefined;
  const lines: Array<{ text: string; highlighted: boolean }> = [{ text: '', highlighted: false }];
  const visit = (nodes: ElementContent[], strong: boolean) => {
    for (const node of nodes) {
      if (node.type === 'element') visit(node.children, strong || node.tagName === 'strong' || node.tagName === 'b');
      else if (node.type === 'text') {
        node.value.split('\n').forEach((piece, index) => {
          if (index > 0) lines.push({ text: '', highlighted: false });
          const line = lines[lines.length - 1];
          line.text += piece;
          if (strong && piece !== '') line.highlighted = true;
        });
      }
    }
  };
  visit(code.children, false);
  if (lines.length > 1 && lines[lines.length - 1].text === '') lines.pop();
  const data: DocumentBlockCode['data'] = {};
  const language = [...classes(pre), ...classes(code)].find((name) => name.startsWith('language-'))?.slice('language-'.length);
  if (language) data.syntax = language;
  const props = pre.properties ?? {};
  if (typeof props.dataTitle === 'string') data.title = props.dataTitle;
  if (props.dataOverflow === 'wrap' || props.dataOverflow === 'scroll') data.overflow = props.dataOverflow;
  if (props.dataLineNumbers !== undefined) data.lineNumbers = props.dataLineNumbers !== 'false';
  if (props.dataFullWidth === 'true' || props.dataFullWidth === 'false') data.fullWidth = props.dataFullWidth === 'true';
  const nodes = lines.map((line): DocumentBlockCodeLine => ({ object: 'block', type: 'code-line', data: line.highlighted ? { highlighted: true } : {}, nodes: [textNode(line.text)] }));
  return { object: 'block', type: 'code', data, nodes };
}

/** Whether a code block needs the HTML form (a highlighted line). */
export function needsHtmlCode(block: DocumentBlockCode): boolean {
  return block.nodes.some((line) => line.data.highlighted === true);
}

export function writeHtmlCode(block: DocumentBlockCode): string {
  const { syntax, title, overflow, lineNumbers, fullWidth } = block.data;
  const attrs = [
    syntax ? ` class="language-${escapeAttribute(syntax)}"` : '',
    title !== undefined ? ` data-title="${escapeAttribute(title)}"` : '',
    overflow !== undefined ? ` data-overflow="${overflow}"` : '',
    lineNumbers === true ? ' data-line-numbers' : '',
    fullWidth !== undefined ? ` data-full-width="${String(fullWidth)}"` : '',
  ].join('');
  const lines = block.nodes.map((line, index) => {
    const text = escapeHtmlText(line.nodes.map((node) => (node.object === 'text' ? node.leaves.map((leaf) => leaf.text).join('') : '')).join(''));
    const last = index === block.nodes.length - 1;
    return line.data.highlighted ? `<strong>${text}\n</strong>` : last ? text : `${text}\n`;
  });
  return `<pre${attrs}><code${syntax ? ` class="lang-${escapeAttribute(syntax)}"` : ''}>${lines.join('')}</code></pre>`;
}
