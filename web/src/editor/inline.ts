import type { JSONContent } from '@tiptap/core';
import type { DocumentLeaf, DocumentMark, DocumentText, InlineContent } from '../api/types.ts';

/**
 * Inline content: the document's text leaves and marks ↔ ProseMirror text nodes and marks, one mark for
 * one mark (bold, italic, code, strikethrough, keyboard, superscript, subscript, color); a `link` inline is
 * the `link` mark carrying its reference. The inlines written as one piece (emoji, icon, math, mention, button,
 * annotation, expression, inline image) are `inlineItem` nodes holding the inline (inlines/), edited through
 * their dialog; anything else (a link around an image, an inline of a newer model) is an `opaqueInline`,
 * shown read-only and sent back unchanged.
 */
const WHOLE_INLINES = new Set(['emoji', 'mention', 'inline-math', 'button', 'icon', 'expression', 'inline-image', 'annotation']);
const SIMPLE_MARKS: Record<string, string> = {
  bold: 'bold',
  italic: 'italic',
  code: 'code',
  strikethrough: 'strike',
  keyboard: 'keyboard',
  superscript: 'superscript',
  subscript: 'subscript',
};
const DOCUMENT_MARKS = Object.fromEntries(Object.entries(SIMPLE_MARKS).map(([document, editor]) => [editor, document]));

type EditorMark = NonNullable<JSONContent['marks']>[number];

function markToEditor(mark: DocumentMark): EditorMark {
  if (mark.type === 'color') return { type: 'color', attrs: { text: mark.data.text, background: mark.data.background } };
  return { type: SIMPLE_MARKS[mark.type] };
}

function leavesToEditor(leaves: DocumentLeaf[], extra: EditorMark[] = []): JSONContent[] {
  return leaves
    .filter((leaf) => leaf.text !== '')
    .flatMap((leaf) => {
      const marks = [...leaf.marks.map(markToEditor), ...extra];
      // A line break inside a leaf is the editor's hard break.
      return leaf.text.split('\n').flatMap((text, index): JSONContent[] => [
        ...(index > 0 ? [{ type: 'hardBreak' }] : []),
        ...(text === '' ? [] : [marks.length ? { type: 'text', text, marks } : { type: 'text', text }]),
      ]);
    });
}

export function inlinesToEditor(nodes: InlineContent[]): JSONContent[] {
  const out: JSONContent[] = [];
  for (const node of nodes) {
    if (node.object === 'text') out.push(...leavesToEditor(node.leaves));
    else if (node.type === 'link' && node.nodes.every((child) => child.object === 'text')) {
      const link: EditorMark = { type: 'link', attrs: { ref: JSON.stringify(node.data.ref), href: node.data.ref.kind === 'url' ? node.data.ref.url : '#' } };
      for (const child of node.nodes) if (child.object === 'text') out.push(...leavesToEditor(child.leaves, [link]));
    } else if (WHOLE_INLINES.has(node.type)) out.push({ type: 'inlineItem', attrs: { json: JSON.stringify(node) } });
    else out.push({ type: 'opaqueInline', attrs: { json: JSON.stringify(node) } });
  }
  return out;
}

function markToDocument(mark: EditorMark): DocumentMark | null {
  if (mark.type === 'color') return { object: 'mark', type: 'color', data: { text: mark.attrs?.text ?? 'default', background: mark.attrs?.background ?? 'default' } };
  const type = DOCUMENT_MARKS[mark.type];
  return type ? ({ object: 'mark', type } as DocumentMark) : null;
}

function leaf(node: JSONContent): DocumentLeaf {
  const marks = (node.marks ?? []).filter((mark) => mark.type !== 'link').map(markToDocument).filter((mark): mark is DocumentMark => mark !== null);
  return { object: 'leaf', text: node.text ?? '', marks };
}

function linkOf(node: JSONContent): string | null {
  const link = node.marks?.find((mark) => mark.type === 'link');
  if (!link) return null;
  return typeof link.attrs?.ref === 'string' && link.attrs.ref ? link.attrs.ref : JSON.stringify({ kind: 'url', url: String(link.attrs?.href ?? '') });
}

/** Editor inline content back to the document: adjacent text joins into one text node of several leaves. */
export function inlinesToDocument(content: JSONContent[] | undefined): InlineContent[] {
  const out: InlineContent[] = [];
  let text: DocumentText | null = null;
  let link: { ref: string; text: DocumentText } | null = null;
  const closeLink = () => {
    if (link) out.push({ object: 'inline', type: 'link', data: { ref: JSON.parse(link.ref) }, nodes: [link.text] });
    link = null;
  };
  for (const node of content ?? []) {
    if (node.type === 'text') {
      const ref = linkOf(node);
      if (ref) {
        text = null;
        if (link && link.ref !== ref) closeLink();
        if (!link) link = { ref, text: { object: 'text', leaves: [] } };
        link.text.leaves.push(leaf(node));
      } else {
        closeLink();
        if (!text) {
          text = { object: 'text', leaves: [] };
          out.push(text);
        }
        text.leaves.push(leaf(node));
      }
    } else if (node.type === 'hardBreak') {
      closeLink();
      if (!text) {
        text = { object: 'text', leaves: [] };
        out.push(text);
      }
      text.leaves.push({ object: 'leaf', text: '\n', marks: [] });
    } else if (node.type === 'opaqueInline' || node.type === 'inlineItem') {
      closeLink();
      text = null;
      out.push(JSON.parse(String(node.attrs?.json)) as InlineContent);
    }
  }
  closeLink();
  // The document model gives every paragraph at least one text node.
  if (out.length === 0) out.push({ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] });
  return out;
}
