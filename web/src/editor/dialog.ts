import type { Choice } from './place.ts';

export type FormValues = Record<string, string | boolean>;

/** One field of an editor dialog. Choices may depend on the other fields' values (a spec, then its operations). */
export interface FormField {
  name: string;
  label: string;
  kind?: 'text' | 'textarea' | 'select' | 'checkbox' | 'url';
  value?: string | boolean;
  choices?: Choice[] | ((values: FormValues) => Promise<Choice[]>);
  /** Checked as the person types: a message says what is wrong, and the dialog cannot be confirmed. */
  check?: (value: string) => string | null;
  required?: boolean;
  hint?: string;
}

let dialogCount = 0;

function valuesOf(form: HTMLFormElement, fields: FormField[]): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const control = form.elements.namedItem(field.name) as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | null;
    if (!control) continue;
    values[field.name] = control instanceof HTMLInputElement && control.type === 'checkbox' ? control.checked : control.value;
  }
  return values;
}

/**
 * A modal dialog (the platform's <dialog>: focus kept inside, Escape cancels) asking for the fields of a
 * block or an inline; answers the values, or null when cancelled. Used by the slash menu and by each block's
 * "Edit" button, so every attribute of every block can be changed by keyboard.
 *
 * `returnFocus` gives the focus back the moment the dialog closes, synchronously: the editor's dialogs pass
 * `focusEditor`, which a key typed at once then finds in place (editor-focus.ts says why it must be then).
 */
export function askForm(title: string, fields: FormField[], confirm = 'Insert', returnFocus?: () => void): Promise<FormValues | null> {
  return new Promise((resolve) => {
    const id = `editor-dialog-${++dialogCount}`;
    const dialog = document.createElement('dialog');
    dialog.className = 'editor-dialog';
    dialog.setAttribute('aria-labelledby', `${id}-title`);
    const form = document.createElement('form');
    form.method = 'dialog';
    const heading = document.createElement('h2');
    heading.id = `${id}-title`;
    heading.textContent = title;
    form.append(heading);
    const loaders: Array<{ field: FormField; load: () => Promise<void> }> = [];
    const checks: Array<() => boolean> = [];
    fields.forEach((field, index) => {
      const fieldId = `${id}-${index}`;
      const row = document.createElement('div');
      row.className = field.kind === 'checkbox' ? 'editor-dialog-row checkbox' : 'editor-dialog-row';
      const label = document.createElement('label');
      label.htmlFor = fieldId;
      label.textContent = field.label;
      let control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
      if (field.kind === 'select') {
        const select = document.createElement('select');
        control = select;
        const fill = (choices: Choice[]) => {
          const current = select.value || String(field.value ?? '');
          select.replaceChildren(...choices.map((choice) => new Option(choice.label, choice.value, false, choice.value === current)));
          if (!choices.length) select.append(new Option('Nothing to choose from', ''));
        };
        if (Array.isArray(field.choices)) fill(field.choices);
        else if (field.choices) {
          const load = field.choices;
          select.append(new Option('Loading…', ''));
          loaders.push({
            field,
            load: async () => {
              try {
                fill(await load(valuesOf(form, fields)));
              } catch (error) {
                select.replaceChildren(new Option(`Could not load: ${(error as Error).message}`, ''));
              }
            },
          });
        }
        select.addEventListener('change', () => {
          for (const loader of loaders) if (loader.field !== field) void loader.load();
        });
      } else if (field.kind === 'textarea') {
        control = document.createElement('textarea');
        control.value = String(field.value ?? '');
        control.rows = 4;
      } else {
        const input = document.createElement('input');
        input.type = field.kind === 'checkbox' ? 'checkbox' : field.kind === 'url' ? 'url' : 'text';
        if (field.kind === 'checkbox') input.checked = field.value === true;
        else input.value = String(field.value ?? '');
        control = input;
      }
      control.id = fieldId;
      control.name = field.name;
      if (field.required) control.required = true;
      row.append(...(field.kind === 'checkbox' ? [control, label] : [label, control]));
      if (field.hint) {
        const hint = document.createElement('p');
        hint.className = 'editor-dialog-hint';
        hint.textContent = field.hint;
        row.append(hint);
      }
      if (field.check) {
        const message = document.createElement('p');
        message.className = 'editor-dialog-error';
        message.id = `${fieldId}-error`;
        message.setAttribute('aria-live', 'polite');
        control.setAttribute('aria-describedby', message.id);
        const run = () => {
          const problem = field.check!(control.value);
          message.textContent = problem ?? '';
          control.setAttribute('aria-invalid', String(problem !== null));
          control.setCustomValidity(problem ?? '');
          return problem === null;
        };
        control.addEventListener('input', run);
        checks.push(run);
        row.append(message);
      }
      form.append(row);
    });
    const buttons = document.createElement('div');
    buttons.className = 'editor-dialog-buttons';
    const ok = document.createElement('button');
    ok.type = 'submit';
    ok.value = 'ok';
    ok.textContent = confirm;
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.textContent = 'Cancel';
    buttons.append(ok, cancel);
    form.append(buttons);
    // The dialog ends in the very event that ends it (the submit, the click on Cancel, the Escape key), not at
    // the platform's `close` event a task later: the focus is back where it came from before the next key
    // arrives, and that key lands there instead of on the page's body (see returnFocus).
    let done = false;
    const finish = (answer: FormValues | null) => {
      if (done) return;
      done = true;
      if (dialog.open) dialog.close();
      dialog.remove();
      returnFocus?.();
      resolve(answer);
    };
    cancel.addEventListener('click', () => finish(null));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (checks.every((run) => run())) finish(valuesOf(form, fields));
    });
    dialog.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      finish(null);
    });
    // Closed any other way (the platform's own close request): cancelled.
    dialog.addEventListener('close', () => finish(null));
    dialog.append(form);
    document.body.append(dialog);
    dialog.showModal();
    // One after the other: a later list may depend on an earlier choice (a spec, then its operations).
    void loaders.reduce((previous, loader) => previous.then(loader.load), Promise.resolve());
  });
}
