import type { AnyExtension } from '@tiptap/core';
import Code from '@tiptap/extension-code';
import StarterKit from '@tiptap/starter-kit';
import { BLOCKS } from './convert.ts';
import { Color, DocumentLink, Keyboard, OpaqueInline, Subscript, Superscript } from './marks.ts';
import { InlineItem } from './inlines/inline-item.ts';

/**
 * The editor's schema: StarterKit for the document, text, bold, italic, strike, hard breaks, history and the
 * cursors; every block from blocks/ (one file per document block), so the editor can make nothing the document
 * model cannot hold. `code` combines with other marks, as the document allows (bold code, a link on code).
 */
export function schemaExtensions(): AnyExtension[] {
  return [
    StarterKit.configure({
      paragraph: false,
      heading: false,
      blockquote: false,
      codeBlock: false,
      horizontalRule: false,
      bulletList: false,
      orderedList: false,
      listItem: false,
      link: false,
      underline: false,
      code: false,
    }),
    Code.extend({ excludes: '' }),
    ...BLOCKS.flatMap((spec) => spec.extensions),
    Keyboard,
    Superscript,
    Subscript,
    Color,
    DocumentLink,
    OpaqueInline,
    InlineItem,
  ];
}
