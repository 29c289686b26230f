import type { NodeViewRendererProps } from '@tiptap/core';
import type { NodeView } from '@tiptap/pm/view';

let fieldCount = 0;

/**
 * A node view for an atom node whose one text attribute (a formula, a tab's title) is edited in a field of
 * its own inside the document. Keys typed in the field stay in it; each change updates the attribute through
 * a transaction, so undo, saving and collaboration see it like any edit.
 */
export class FieldView implements NodeView {
  dom: HTMLElement;
  private field: HTMLInputElement | HTMLTextAreaElement;

  constructor(
    private props: NodeViewRendererProps,
    options: { label: string; attribute: string; className: string; multiline?: boolean; contentDOM?: boolean; preview?: (element: HTMLElement, value: string) => void },
  ) {
    this.dom = document.createElement('div');
    this.dom.className = `${options.className} field-view`;
    const id = `field-${++fieldCount}`;
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = options.label;
    this.field = document.createElement(options.multiline ? 'textarea' : 'input');
    this.field.id = id;
    this.field.value = String(props.node.attrs[options.attribute] ?? '');
    this.field.spellcheck = false;
    if (!props.editor.isEditable) this.field.readOnly = true;
    this.field.addEventListener('input', () => {
      const position = typeof props.getPos === 'function' ? props.getPos() : undefined;
      if (position === undefined) return;
      const { tr } = props.editor.view.state;
      props.editor.view.dispatch(tr.setNodeAttribute(position, options.attribute, this.field.value));
    });
    this.dom.append(label, this.field);
    this.attribute = options.attribute;
    if (options.preview) {
      const preview = document.createElement('div');
      preview.className = 'field-preview';
      preview.setAttribute('aria-hidden', 'true');
      this.dom.append(preview);
      this.preview = (value) => options.preview!(preview, value);
      this.preview(this.field.value);
    }
  }

  private attribute: string;
  private preview: ((value: string) => void) | null = null;

  update(node: NodeViewRendererProps['node']): boolean {
    if (node.type !== this.props.node.type) return false;
    const value = String(node.attrs[this.attribute] ?? '');
    if (this.field.value !== value) this.field.value = value;
    this.preview?.(value);
    this.props = { ...this.props, node };
    return true;
  }

  stopEvent(event: Event): boolean {
    return event.target === this.field;
  }

  ignoreMutation(): boolean {
    return true;
  }
}
