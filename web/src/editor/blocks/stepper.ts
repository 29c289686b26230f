import { mergeAttributes, Node } from '@tiptap/core';
import type { DocumentBlockStepper, DocumentBlockStepperStep } from '../../../../src/content/markdown/types.ts';
import type { BlockSpec } from '../block-spec.ts';
import { headerView } from '../header-view.ts';
import { childrenToDocument, childrenToEditor } from '../plain-text.ts';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    stepper: { insertStepper: () => ReturnType };
  }
}

const StepperNode = Node.create({
  name: 'stepper',
  group: 'block',
  content: 'stepperStep+',
  defining: true,
  parseHTML: () => [{ tag: 'ol[data-stepper]' }],
  renderHTML: ({ HTMLAttributes }) => ['ol', mergeAttributes(HTMLAttributes, { 'data-stepper': '', class: 'stepper' }), 0],
  addCommands() {
    return {
      insertStepper:
        () =>
        ({ commands }) =>
          commands.insertContent({ type: 'stepper', content: [{ type: 'stepperStep', content: [{ type: 'paragraph' }] }, { type: 'stepperStep', content: [{ type: 'paragraph' }] }] }),
    };
  },
});

const StepperStep = Node.create({
  name: 'stepperStep',
  content: 'block+',
  defining: true,
  addAttributes() {
    return { icon: { default: '' } };
  },
  parseHTML: () => [{ tag: 'li[data-step]' }],
  renderHTML: () => ['li', { 'data-step': '', class: 'stepper-step' }, 0],
  addNodeView() {
    return (props) => headerView(props, { tag: 'li', className: 'stepper-step', label: 'Step', fields: [{ attribute: 'icon', label: 'Step icon', placeholder: 'none' }] });
  },
});

/** `stepper` of `stepper-step` (optional icon, blocks) ↔ a stepper of steps; Enter on an empty line leaves a step. */
export const stepper: BlockSpec = {
  documentTypes: ['stepper'],
  nodeNames: ['stepper'],
  extensions: [StepperNode, StepperStep],
  toEditor(block, convert) {
    const steps = (block as DocumentBlockStepper).nodes;
    if (steps.length === 0 || steps.some((step) => step.type !== 'stepper-step')) return null;
    return { type: 'stepper', content: steps.map((step) => ({ type: 'stepperStep', attrs: { icon: step.data?.icon ?? '' }, content: childrenToEditor(step.nodes, convert) })) };
  },
  toDocument(node, convert) {
    const nodes: DocumentBlockStepperStep[] = (node.content ?? []).map((step) => ({
      object: 'block',
      type: 'stepper-step',
      data: step.attrs?.icon ? { icon: String(step.attrs.icon) } : {},
      nodes: childrenToDocument(convert.blocksToDocument(step.content)),
    }));
    return { object: 'block', type: 'stepper', data: {}, nodes };
  },
};
