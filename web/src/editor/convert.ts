import type { JSONContent } from '@tiptap/core';
import type { Document, DocumentBlock } from '../api/types.ts';
import type { BlockSpec, Convert } from './block-spec.ts';
import { isEmptyParagraph } from './plain-text.ts';
import { blockquote } from './blocks/blockquote.ts';
import { code } from './blocks/code.ts';
import { divider } from './blocks/divider.ts';
import { expandable } from './blocks/expandable.ts';
import { heading } from './blocks/heading.ts';
import { hint } from './blocks/hint.ts';
import { images } from './blocks/images.ts';
import { listOrdered } from './blocks/list-ordered.ts';
import { listTasks } from './blocks/list-tasks.ts';
import { listUnordered } from './blocks/list-unordered.ts';
import { math } from './blocks/math.ts';
import { opaqueBlock } from './blocks/opaque.ts';
import { paragraph } from './blocks/paragraph.ts';
import { tabs } from './blocks/tabs.ts';
import { table } from './blocks/table.ts';
import { stepper } from './blocks/stepper.ts';
import { columns } from './blocks/columns.ts';
import { ifBlock } from './blocks/if.ts';
import { updates } from './blocks/updates.ts';
import { embed } from './blocks/embed.ts';
import { file } from './blocks/file.ts';
import { contentRef } from './blocks/content-ref.ts';
import { reusableContent } from './blocks/reusable-content.ts';
import { drawing } from './blocks/drawing.ts';
import { integration } from './blocks/integration.ts';
import { openapiOperation, openapiSchemas, openapiWebhook, swagger } from './blocks/openapi.ts';
import type { VoidBlockSpec } from './blocks/void-block.ts';

/** The blocks without text of their own, each edited through a dialog of its fields (blocks/void-block.ts). */
export const VOID_BLOCKS: VoidBlockSpec[] = [embed, file, contentRef, openapiOperation, swagger, openapiSchemas, openapiWebhook, reusableContent, drawing, integration];

/** Every block the editor models, one spec per document block (blocks/). */
export const BLOCKS: BlockSpec[] = [
  paragraph, heading, listUnordered, listOrdered, listTasks, blockquote, code, divider, hint, math, images, expandable, tabs,
  table, stepper, columns, ifBlock, updates, ...VOID_BLOCKS, opaqueBlock,
];

const byDocumentType = new Map(BLOCKS.flatMap((spec) => spec.documentTypes.map((type) => [type, spec] as const)));
const byNodeName = new Map(BLOCKS.flatMap((spec) => spec.nodeNames.map((name) => [name, spec] as const)));

export const convert: Convert = {
  blocksToEditor(blocks) {
    return blocks.map((block) => byDocumentType.get(block.type)?.toEditor(block, convert) ?? opaqueBlock.toEditor(block, convert)!);
  },
  blocksToDocument(nodes) {
    return (nodes ?? []).map((node) => {
      const spec = byNodeName.get(node.type ?? '');
      if (!spec) throw new Error(`The editor made a node the document model has no block for: ${node.type}.`);
      return spec.toDocument(node, convert);
    });
  },
};

/** A page's document as the editor's content. */
export function documentToEditor(document: Document | undefined): JSONContent {
  const content = convert.blocksToEditor(document?.nodes ?? []);
  return { type: 'doc', content: content.length ? content : [{ type: 'paragraph' }] };
}

/**
 * The editor's content as a page document. A page left with one empty paragraph is an empty page (the
 * editor always holds a block; the document need not).
 */
export function editorToDocument(content: JSONContent, original?: Document): Document {
  let nodes: DocumentBlock[] = convert.blocksToDocument(content.content);
  if (nodes.length === 1 && isEmptyParagraph(nodes[0])) nodes = [];
  return { object: 'document', data: original?.data ?? {}, nodes };
}
