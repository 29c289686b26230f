import { Node } from '@tiptap/core';
import type { BlockSpec } from '../block-spec.ts';
import { plainText } from '../plain-text.ts';
import type { DocumentBlock } from '../../api/types.ts';

const LABELS: Record<string, string> = {
  table: 'Table',
  'content-ref': 'Page link card',
  embed: 'Embed',
  file: 'File',
  stepper: 'Stepper',
  columns: 'Columns',
  if: 'Adaptive content',
  updates: 'Updates',
  'reusable-content': 'Reusable content',
  drawing: 'Drawing',
  integration: 'Integration block',
  swagger: 'OpenAPI operation',
  'openapi-operation': 'OpenAPI operation',
  'openapi-schemas': 'OpenAPI schemas',
  'openapi-webhook': 'OpenAPI webhook',
};

/**
 * Any block the editor does not model yet (or whose content is beyond its node), kept whole: shown
 * read-only in place with its kind and text, movable and deletable as one piece, and saved back exactly as
 * it was read, so the page's Markdown for it does not change.
 */
const OpaqueBlockNode = Node.create({
  name: 'opaqueBlock',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: true,
  addAttributes() {
    return { json: { default: '{}' } };
  },
  parseHTML: () => [{ tag: 'div[data-opaque-block]', getAttrs: (element) => ({ json: (element as HTMLElement).dataset.opaqueBlock }) }],
  renderHTML: ({ node }) => ['div', { 'data-opaque-block': node.attrs.json }],
  addNodeView() {
    return ({ node }) => {
      const block = JSON.parse(node.attrs.json) as DocumentBlock;
      const dom = document.createElement('div');
      dom.className = 'opaque-block';
      dom.setAttribute('contenteditable', 'false');
      const kind = document.createElement('p');
      kind.className = 'opaque-kind';
      kind.textContent = `${LABELS[block.type] ?? block.type} · shown as written; the editor cannot change it yet`;
      const text = document.createElement('p');
      text.className = 'opaque-text';
      text.textContent = summary(block).slice(0, 300);
      dom.append(kind, text);
      return { dom };
    };
  },
});

function summary(block: DocumentBlock): string {
  const parts: string[] = [];
  if ('nodes' in block && Array.isArray(block.nodes)) parts.push(plainText(block.nodes as DocumentBlock[]));
  if ('fragments' in block && Array.isArray(block.fragments)) for (const fragment of block.fragments) parts.push(plainText(fragment.nodes));
  if (parts.join('').trim() === '' && 'data' in block) parts.push(JSON.stringify(block.data));
  return parts.filter(Boolean).join(' · ');
}

export const opaqueBlock: BlockSpec = {
  documentTypes: [],
  nodeNames: ['opaqueBlock'],
  extensions: [OpaqueBlockNode],
  toEditor: (block) => ({ type: 'opaqueBlock', attrs: { json: JSON.stringify(block) } }),
  toDocument: (node) => JSON.parse(String(node.attrs?.json)) as DocumentBlock,
};
