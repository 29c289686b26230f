/**
 * Formulas through KaTeX, rendered on the server: HTML for the eye and MathML for screen readers. The
 * page links KaTeX's own stylesheet and fonts.
 */
import katex from 'katex';
import { escapeHtml } from './escape.ts';

/** A formula as HTML; a formula KaTeX cannot read shows its source. */
export function renderMath(formula: string, display: boolean): string {
  try {
    // `trust: false` refuses \href, \url, \includegraphics and \html*: content may not bring its own
    // links or markup in through a formula. `strict: 'ignore'` keeps KaTeX's warnings out of the logs.
    const html = katex.renderToString(formula, { displayMode: display, throwOnError: false, output: 'htmlAndMathml', trust: false, strict: 'ignore' });
    return display ? `<div class="math math-display">${html}</div>` : `<span class="math math-inline">${html}</span>`;
  } catch {
    // throwOnError: false turns parse errors into an inline error mark; what KaTeX still throws (an
    // internal failure on odd input) must not take the page down with it.
    const source = `<code class="math-error">${escapeHtml(formula)}</code>`;
    return display ? `<div class="math math-display">${source}</div>` : source;
  }
}
