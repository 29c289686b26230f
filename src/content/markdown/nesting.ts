/**
 * Which blocks may sit inside which container. Markdown lets anything nest in anything; the document keeps
 * what GitBook itself writes — code, images and tables in hints, tables in tabs and steps, tabs in steps —
 * which is more than the client's 0.130.0 document lists (the errata are in
 * docs/decisions/0003-client-document-errata.md). When a page nests a block where even that does not
 * allow it (a stepper inside a list item), the container is split around it and the block moves up one
 * level, where the next container checks it again. Content is never dropped; the nesting gives way.
 */
import type { DocumentBlock, DocumentBlockType } from './types.ts';

export type Container =
  | 'document'
  | 'hint'
  | 'blockquote'
  | 'list-item'
  | 'tabs-item'
  | 'expandable-body'
  | 'stepper-step'
  | 'column'
  | 'if'
  | 'update';

export const ESSENTIALS: readonly DocumentBlockType[] = ['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider'];

/** Blocks that stand on their own in a flow of content (not the parts of a container). */
const FLOW: readonly DocumentBlockType[] = [
  ...ESSENTIALS,
  'blockquote', 'hint', 'images', 'file', 'drawing', 'embed', 'code', 'math', 'expandable', 'tabs', 'table',
  'swagger', 'openapi-operation', 'openapi-schemas', 'openapi-webhook', 'content-ref', 'integration', 'reusable-content',
  'stepper', 'columns', 'if', 'updates',
];

const except = (...types: DocumentBlockType[]) => FLOW.filter((type) => !types.includes(type));

const LEAVES: readonly DocumentBlockType[] = ['code', 'images', 'table', 'math', 'embed', 'file', 'content-ref', 'drawing', 'integration', 'reusable-content'];

export const ALLOWED: Record<Container, ReadonlySet<DocumentBlockType>> = {
  document: new Set(FLOW),
  hint: new Set([...ESSENTIALS, ...LEAVES, 'blockquote', 'if']),
  blockquote: new Set([...ESSENTIALS, 'blockquote', 'code', 'images', 'math', 'table']),
  'list-item': new Set([...ESSENTIALS, ...LEAVES, 'hint', 'blockquote']),
  'tabs-item': new Set(except('tabs', 'stepper', 'updates')),
  'expandable-body': new Set(except('expandable', 'stepper', 'updates')),
  'stepper-step': new Set(except('stepper', 'updates')),
  column: new Set(except('columns', 'stepper', 'updates')),
  if: new Set(FLOW),
  update: new Set(except('updates')),
};

/** Whether a block of this type may sit directly in this container. */
export function allows(container: Container, type: DocumentBlockType): boolean {
  return ALLOWED[container].has(type);
}

/**
 * Builds a container around `blocks`, split wherever one of them is not allowed in it: the result is the
 * container (or its parts) with the refused blocks between them, for the parent to take. A container
 * that holds nothing but refused blocks is kept, empty, before them.
 */
export function wrapAllowed<T extends DocumentBlock>(container: Container, blocks: DocumentBlock[], make: (nodes: DocumentBlock[], part: number) => T): Array<T | DocumentBlock> {
  const out: Array<T | DocumentBlock> = [];
  let run: DocumentBlock[] = [];
  let parts = 0;
  const flush = () => {
    if (run.length > 0 || parts === 0) out.push(make(run, parts++));
    run = [];
  };
  for (const block of blocks) {
    if (allows(container, block.type)) run.push(block);
    else {
      flush();
      out.push(block);
    }
  }
  if (run.length > 0 || parts === 0) flush();
  return out;
}
