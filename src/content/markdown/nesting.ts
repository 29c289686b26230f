/**
 * Which blocks the client's document allows inside which container. Markdown lets anything nest in
 * anything; when a page nests a block where the document does not allow it (a code block inside a hint,
 * a table inside a tab), the container is split around it and the block moves up one level, where the
 * next container checks it again. Content is never dropped; the nesting is what gives way.
 */
import type { DocumentBlock, DocumentBlockType } from './types.ts';

export type Container = 'document' | 'hint' | 'blockquote' | 'list-item' | 'tabs-item' | 'expandable-body';

const ESSENTIALS: DocumentBlockType[] = ['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider'];

const ALLOWED: Record<Container, ReadonlySet<DocumentBlockType>> = {
  document: new Set([
    ...ESSENTIALS,
    'blockquote', 'hint', 'images', 'file', 'drawing', 'embed', 'code', 'math', 'expandable', 'tabs', 'table',
    'swagger', 'openapi-operation', 'openapi-schemas', 'openapi-webhook', 'content-ref', 'integration', 'reusable-content', 'stepper',
  ]),
  hint: new Set(ESSENTIALS),
  blockquote: new Set([...ESSENTIALS, 'blockquote']),
  'list-item': new Set([...ESSENTIALS, 'code', 'hint', 'blockquote', 'math', 'table']),
  'tabs-item': new Set([...ESSENTIALS, 'content-ref', 'code', 'embed', 'file', 'images', 'drawing', 'hint', 'blockquote', 'math', 'integration']),
  'expandable-body': new Set([...ESSENTIALS, 'images', 'code', 'table', 'hint', 'blockquote', 'reusable-content']),
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
