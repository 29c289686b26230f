import type { ContentRef, DocumentTableValue } from '../../../../src/content/markdown/types.ts';
import type { Choice, PlaceData } from '../place.ts';
import type { TypedColumn } from './table-values.ts';

/**
 * The control of a typed table cell, fitting its column's type: a number input, a checkbox, rating stars
 * 1..max, a select of options, a page picker, or a list of people or files (each removable) with a picker to
 * add one (the organization's members, the space's files). `set` shows a value (after an edit, undo, or a
 * change from elsewhere) without taking the focus away.
 */
export interface CellControl {
  dom: HTMLElement;
  set(value: DocumentTableValue | undefined, label: string): void;
}

export interface ControlContext {
  column: TypedColumn;
  data: PlaceData | null;
  /** Whether the editor takes edits now (a live page is read-only until it is in step). */
  editable(): boolean;
  commit(value: DocumentTableValue | undefined): void;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  return node;
}

function option(label: string, value: string): HTMLOptionElement {
  const node = element('option');
  node.value = value;
  node.textContent = label;
  return node;
}

function numberControl(context: ControlContext): CellControl {
  const input = element('input', 'typed-number');
  input.type = 'number';
  input.step = 'any';
  input.disabled = !context.editable();
  input.addEventListener('input', () => {
    const text = input.value.trim();
    if (text === '') context.commit(undefined);
    else if (Number.isFinite(Number(text))) context.commit(Number(text));
  });
  return {
    dom: input,
    set(value, label) {
      input.setAttribute('aria-label', label);
      // What the person is typing stays as typed ("1." is on its way to "1.5").
      if (document.activeElement !== input) input.value = typeof value === 'number' ? String(value) : '';
    },
  };
}

function checkboxControl(context: ControlContext): CellControl {
  const input = element('input', 'typed-checkbox');
  input.type = 'checkbox';
  input.disabled = !context.editable();
  input.addEventListener('change', () => context.commit(input.checked));
  return {
    dom: input,
    set(value, label) {
      input.setAttribute('aria-label', label);
      input.checked = value === true;
    },
  };
}

function ratingControl(context: ControlContext, max: number): CellControl {
  const group = element('span', 'typed-rating');
  group.setAttribute('role', 'group');
  let current: number | undefined;
  const stars = Array.from({ length: Math.max(1, Math.min(max, 10)) }, (_, index) => {
    const star = element('button', 'typed-star');
    star.type = 'button';
    star.disabled = !context.editable();
    // Choosing the rating it has clears it.
    star.addEventListener('click', () => context.commit(current === index + 1 ? undefined : index + 1));
    group.append(star);
    return star;
  });
  return {
    dom: group,
    set(value, label) {
      current = typeof value === 'number' ? value : undefined;
      group.setAttribute('aria-label', `${label}: ${current === undefined ? 'no rating' : `${current} of ${max}`}`);
      stars.forEach((star, index) => {
        star.textContent = current !== undefined && index < current ? '★' : '☆';
        star.setAttribute('aria-label', `${index + 1} of ${max}`);
        star.setAttribute('aria-pressed', String(current === index + 1));
      });
    },
  };
}

/** A choice of one (a single select, a link to a page): a select with "none" first. */
function singleControl(context: ControlContext, choices: () => Promise<Choice[]>, toValue: (choice: string) => DocumentTableValue, ofValue: (value: DocumentTableValue | undefined) => { value: string; label?: string }): CellControl {
  const select = element('select', 'typed-select');
  select.disabled = !context.editable();
  let loaded: Choice[] = [];
  let shown: DocumentTableValue | undefined;
  const fill = () => {
    const { value, label } = ofValue(shown);
    const options = [option('(none)', ''), ...loaded.map((choice) => option(choice.label.trim(), choice.value))];
    if (value !== '' && !loaded.some((choice) => choice.value === value)) options.push(option(label ?? value, value));
    select.replaceChildren(...options);
    select.value = value;
  };
  select.addEventListener('change', () => context.commit(select.value === '' ? undefined : select.value === ofValue(shown).value ? shown : toValue(select.value)));
  void choices().then((list) => {
    loaded = list;
    fill();
  }, () => undefined);
  return {
    dom: select,
    set(value, label) {
      select.setAttribute('aria-label', label);
      if (JSON.stringify(value) === JSON.stringify(shown) && select.options.length > 0) return;
      shown = value;
      fill();
    },
  };
}

/** A list of several (people, files, options): each shown as a button that removes it, and a picker that adds one. */
function listControl(context: ControlContext, noun: string, choices: () => Promise<Choice[]>): CellControl {
  const wrap = element('span', 'typed-list');
  const chips = element('span', 'typed-chips');
  const add = element('select', 'typed-add');
  add.disabled = !context.editable();
  wrap.append(chips, add);
  let loaded: Choice[] = [];
  let values: string[] = [];
  let cellLabel = '';
  const nameOf = (id: string) => loaded.find((choice) => choice.value === id)?.label.trim() ?? id;
  const draw = () => {
    chips.replaceChildren(
      ...values.map((id) => {
        const chip = element('button', 'typed-chip');
        chip.type = 'button';
        chip.disabled = !context.editable();
        chip.textContent = `${nameOf(id)} ×`;
        chip.setAttribute('aria-label', `Remove ${nameOf(id)} from ${cellLabel}`);
        chip.addEventListener('click', () => {
          add.focus();
          context.commit(values.filter((value) => value !== id));
        });
        return chip;
      }),
    );
    add.replaceChildren(option(`Add ${noun}…`, ''), ...loaded.filter((choice) => !values.includes(choice.value)).map((choice) => option(choice.label.trim(), choice.value)));
    add.value = '';
  };
  add.addEventListener('change', () => {
    if (add.value !== '') context.commit([...values, add.value]);
  });
  void choices().then((list) => {
    loaded = list;
    draw();
  }, () => undefined);
  return {
    dom: wrap,
    set(value, label) {
      const next = Array.isArray(value) ? value : [];
      // Drawn again only when something changed: a chip or the picker may have the focus.
      if (label === cellLabel && next.join('\n') === values.join('\n')) return;
      values = next;
      cellLabel = label;
      add.setAttribute('aria-label', `Add ${noun} to ${label}`);
      draw();
    },
  };
}

function refLabel(ref: ContentRef): string {
  const record = ref as unknown as Record<string, unknown>;
  return String(record.url ?? record.page ?? record.file ?? record.kind);
}

/** The control for a cell of `context.column`. */
export function cellControl(context: ControlContext): CellControl {
  const { column, data } = context;
  switch (column.type) {
    case 'number':
      return numberControl(context);
    case 'checkbox':
      return checkboxControl(context);
    case 'rating':
      return ratingControl(context, column.max);
    case 'users':
      return listControl(context, 'a person', async () => (data ? data.members() : []));
    case 'files':
      return listControl(context, 'a file', async () => (data ? (await data.files()).map((file) => ({ label: file.name, value: file.id })) : []));
    case 'select': {
      const options = async () => column.options.map((item) => ({ label: item.label || item.value, value: item.value }));
      if (column.multiple) return listControl(context, 'an option', options);
      return singleControl(context, options, (choice) => [choice], (value) => ({ value: Array.isArray(value) ? (value[0] ?? '') : '' }));
    }
    case 'content-ref':
      return singleControl(
        context,
        async () => (data ? data.pages() : []),
        (choice) => ({ kind: 'page', page: choice }),
        (value) => {
          if (!value || typeof value !== 'object' || Array.isArray(value)) return { value: '' };
          const ref = value as ContentRef;
          return ref.kind === 'page' ? { value: ref.page } : { value: `kept:${refLabel(ref)}`, label: refLabel(ref) };
        },
      );
  }
}
