import HorizontalRule from '@tiptap/extension-horizontal-rule';
import type { BlockSpec } from '../block-spec.ts';

/** `divider` ↔ horizontalRule (`---`). */
export const divider: BlockSpec = {
  documentTypes: ['divider'],
  nodeNames: ['horizontalRule'],
  extensions: [HorizontalRule],
  toEditor: () => ({ type: 'horizontalRule' }),
  toDocument: () => ({ object: 'block', type: 'divider', data: {}, isVoid: true }),
};
