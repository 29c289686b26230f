/// <reference path="./css.d.ts" />
/**
 * KaTeX, loaded with the first formula shown (its own chunk and stylesheet, both from Quire's origin). It
 * draws into the element through the DOM (katex.render), whose style properties the Content-Security-Policy
 * allows, never as HTML text with style attributes. A formula KaTeX cannot read shows its message instead.
 */
type Katex = typeof import('katex').default;
let loading: Promise<Katex> | null = null;

function load(): Promise<Katex> {
  loading ??= Promise.all([import('katex'), import('katex/dist/katex.min.css')]).then(([module]) => module.default);
  return loading;
}

export function renderTex(element: HTMLElement, formula: string, displayMode: boolean): void {
  if (typeof document === 'undefined') return;
  element.dataset.formula = formula;
  if (formula.trim() === '') {
    element.replaceChildren();
    return;
  }
  void load().then((katex) => {
    // A later edit may have changed the formula while KaTeX loaded.
    if (element.dataset.formula !== formula) return;
    element.classList.remove('tex-error');
    try {
      katex.render(formula, element, { displayMode, throwOnError: true, trust: false, strict: 'ignore', output: 'htmlAndMathml' });
    } catch (error) {
      element.classList.add('tex-error');
      element.textContent = (error as Error).message;
    }
  });
}
