import { Mark, mergeAttributes, Node } from '@tiptap/core';
import Link from '@tiptap/extension-link';
import type { DocumentInline } from '../api/types.ts';
import { plainText } from './plain-text.ts';

/** The document's marks that StarterKit has no mark for, each as the element the reader renders. */
const simple = (name: string, tag: string) =>
  Mark.create({ name, parseHTML: () => [{ tag }], renderHTML: ({ HTMLAttributes }) => [tag, mergeAttributes(HTMLAttributes), 0] });

export const Keyboard = simple('keyboard', 'kbd');
export const Superscript = simple('superscript', 'sup');
export const Subscript = simple('subscript', 'sub');

/** `color` (text and background, named colours): a class per colour, so no inline style is needed. */
export const Color = Mark.create({
  name: 'color',
  addAttributes() {
    return { text: { default: 'default', renderHTML: () => ({}) }, background: { default: 'default', renderHTML: () => ({}) } };
  },
  parseHTML: () => [{ tag: 'mark[data-color]' }],
  renderHTML: ({ mark }) => ['mark', { 'data-color': '', class: `color-text-${String(mark.attrs.text).replace('$', '')} color-bg-${String(mark.attrs.background).replace('$', '')}` }, 0],
});

/** The `link` inline as a mark; `ref` keeps the document's content reference (a page, an anchor, a URL). */
export const DocumentLink = Link.extend({
  addAttributes() {
    return { ...this.parent?.(), ref: { default: null, renderHTML: () => ({}) } };
  },
}).configure({ openOnClick: false, autolink: false, protocols: ['http', 'https', 'mailto'] });

const INLINE_LABELS: Record<string, (inline: DocumentInline) => string> = {
  emoji: (inline) => (inline.type === 'emoji' ? String.fromCodePoint(...inline.data.code.split('-').map((part) => parseInt(part, 16))) : ''),
  'inline-math': (inline) => (inline.type === 'inline-math' ? `$${inline.data.formula}$` : ''),
  icon: (inline) => (inline.type === 'icon' ? `[${inline.data.icon}]` : ''),
  mention: () => '@mention',
  button: (inline) => (inline.type === 'button' ? `[${inline.data.label}]` : ''),
  expression: (inline) => (inline.type === 'expression' ? `{${inline.data.expression}}` : ''),
  annotation: (inline) => (inline.type === 'annotation' ? plainText(inline.nodes) : ''),
  'inline-image': () => '[image]',
  link: (inline) => (inline.type === 'link' ? plainText(inline.nodes as DocumentInline[]) : ''),
};

/** An inline the editor does not model: shown read-only as a chip, saved back as it was read. */
export const OpaqueInline = Node.create({
  name: 'opaqueInline',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  addAttributes() {
    return { json: { default: '{}' } };
  },
  parseHTML: () => [{ tag: 'span[data-opaque-inline]', getAttrs: (element) => ({ json: (element as HTMLElement).dataset.opaqueInline }) }],
  renderHTML({ node }) {
    const inline = JSON.parse(node.attrs.json) as DocumentInline;
    const label = INLINE_LABELS[inline.type]?.(inline) || inline.type;
    return ['span', { 'data-opaque-inline': node.attrs.json, class: `opaque-inline opaque-${inline.type}`, title: `${inline.type}: shown as written` }, label];
  },
});
