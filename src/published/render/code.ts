/**
 * Code blocks: highlighted on the server with highlight.js when their language is known (never guessed:
 * auto-detection runs every grammar), as escaped text otherwise. Each source line is its own
 * `<span class="line">`, so that the stylesheet can number lines and mark highlighted ones.
 */
import hljs from 'highlight.js';
import type { DocumentBlockCode, DocumentBlockCodeLine } from '../../content/markdown/index.ts';
import { escapeAttribute, escapeHtml } from './escape.ts';

/** The text of a code line; annotations and other inlines in code have no text of their own here. */
function lineText(line: DocumentBlockCodeLine): string {
  const parts: string[] = [];
  for (const node of line.nodes ?? []) if (node.object === 'text') for (const leaf of node.leaves) parts.push(leaf.text);
  return parts.join('');
}

/** The highlight.js grammar for a block's `syntax`, when there is one (names and aliases alike). */
function grammarOf(syntax: string | undefined): string | undefined {
  if (!syntax) return undefined;
  const name = syntax.trim().toLowerCase();
  return hljs.getLanguage(name) ? name : undefined;
}

/** The code as HTML: highlight.js spans when the language is known, escaped text otherwise. */
export function highlight(code: string, language: string | undefined): string {
  if (language === undefined) return escapeHtml(code);
  try {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    // A grammar that fails on some input must not fail the page: plain text is a faithful rendering.
    return escapeHtml(code);
  }
}

const TOKEN = /<span[^>]*>|<\/span>|\n/g;

/**
 * Cuts highlighted HTML into lines. A span may run over several lines (a block comment, a template
 * string): it is closed at each line end and opened again on the next line, so every line is whole.
 */
export function splitLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line: string[] = [];
  let from = 0;
  for (const match of html.matchAll(TOKEN)) {
    line.push(html.slice(from, match.index));
    from = match.index + match[0].length;
    if (match[0] === '\n') {
      lines.push(line.join('') + '</span>'.repeat(open.length));
      line = [...open];
    } else {
      if (match[0] === '</span>') open.pop();
      else open.push(match[0]);
      line.push(match[0]);
    }
  }
  line.push(html.slice(from));
  lines.push(line.join(''));
  return lines;
}

/** A Mermaid diagram: its source, drawn in the browser by the Mermaid script the page then loads (layout.ts). */
function renderMermaid(lines: DocumentBlockCodeLine[], out: string[]): void {
  out.push(`<div class="diagram"><pre class="mermaid">${escapeHtml(lines.map(lineText).join('\n'))}</pre></div>`);
}

export function renderCode(block: DocumentBlockCode, out: string[]): void {
  const data = block.data ?? {};
  const lines = block.nodes ?? [];
  if (data.syntax?.trim().toLowerCase() === 'mermaid') return renderMermaid(lines, out);
  const language = grammarOf(data.syntax);
  const html = splitLines(highlight(lines.map(lineText).join('\n'), language));
  const preClasses = ['hljs', data.lineNumbers ? 'line-numbers' : '', data.overflow === 'wrap' ? 'wrap' : ''].filter(Boolean).join(' ');
  out.push(`<div class="code-block${data.fullWidth ? ' full-width' : ''}">`);
  if (data.title) out.push(`<div class="code-title">${escapeHtml(data.title)}</div>`);
  const languageAttribute = language ? ` data-language="${escapeAttribute(language)}"` : '';
  out.push(`<pre class="${preClasses}"${languageAttribute}><code${language ? ` class="language-${escapeAttribute(language)}"` : ''}>`);
  html.forEach((content, index) => {
    if (index > 0) out.push('\n');
    const highlighted = lines[index]?.data?.highlighted === true;
    out.push(`<span class="line${highlighted ? ' highlighted' : ''}">${content}</span>`);
  });
  out.push('</code></pre></div>');
}
