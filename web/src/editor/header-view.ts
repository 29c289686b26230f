import type { NodeViewRendererProps } from '@tiptap/core';
import type { NodeView } from '@tiptap/pm/view';

/** A text attribute of a container node, edited in a field above its content. */
export interface HeaderField {
  attribute: string;
  label: string;
  placeholder?: string;
  /** Checked as the person types: the message shown under the field, or null when it is right. */
  check?: (value: string) => string | null;
}

let headerCount = 0;

/**
 * A node view for a node that holds blocks (a step, a column, an `if` block, an update): its text
 * attributes in fields of their own above the content, which ProseMirror edits as usual below. Keys typed in
 * a field stay in it; each change is a transaction setting the attribute (undo and saving see it).
 */
export function headerView(props: NodeViewRendererProps, options: { tag?: string; className: string; label: string; fields: HeaderField[] }): NodeView {
  const { editor, getPos } = props;
  let node = props.node;
  const dom = document.createElement(options.tag ?? 'section');
  dom.className = options.className;
  dom.setAttribute('aria-label', options.label);
  const header = document.createElement('div');
  header.className = 'block-header';
  header.contentEditable = 'false';
  const inputs = options.fields.map((field) => {
    const id = `header-field-${++headerCount}`;
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = field.label;
    const input = document.createElement('input');
    input.id = id;
    input.spellcheck = false;
    input.value = String(node.attrs[field.attribute] ?? '');
    if (field.placeholder) input.placeholder = field.placeholder;
    input.readOnly = !editor.isEditable;
    const message = document.createElement('span');
    message.className = 'block-header-error';
    message.id = `${id}-error`;
    message.setAttribute('aria-live', 'polite');
    const check = () => {
      if (!field.check) return;
      const problem = field.check(input.value);
      message.textContent = problem ?? '';
      input.setAttribute('aria-invalid', String(problem !== null));
    };
    if (field.check) input.setAttribute('aria-describedby', message.id);
    input.addEventListener('input', () => {
      check();
      const position = typeof getPos === 'function' ? getPos() : undefined;
      if (position !== undefined) editor.view.dispatch(editor.view.state.tr.setNodeAttribute(position, field.attribute, input.value));
    });
    check();
    header.append(label, input, message);
    return { field, input, check };
  });
  const contentDOM = document.createElement('div');
  contentDOM.className = `${options.className}-body`;
  dom.append(header, contentDOM);
  return {
    dom,
    contentDOM,
    stopEvent: (event) => header.contains(event.target as Node),
    ignoreMutation: (mutation) => header.contains(mutation.target) || (mutation.type === 'attributes' && mutation.target === dom),
    update: (updated) => {
      if (updated.type !== node.type) return false;
      node = updated;
      for (const { field, input, check } of inputs) {
        const value = String(updated.attrs[field.attribute] ?? '');
        if (input.value !== value) {
          input.value = value;
          check();
        }
      }
      return true;
    },
  };
}
