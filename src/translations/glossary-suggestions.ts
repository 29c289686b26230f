/**
 * Names that look like products, to suggest for the glossary when a translation is created: an engine
 * translates "Rocket.Chat" word by word ("Cohete.El chat"), and only a glossary term keeps it. Suggested:
 * the space's and sites' titles, words with an inner dot or an inner capital (Rocket.Chat, Node.js, GitHub),
 * and link texts that are a page's title. Nothing is added by itself: the caller shows the suggestions and
 * the glossary's owners decide (`PUT …/translations-glossary`).
 */

/** What a space offers to look at. */
export interface SuggestionSource {
  /** The space's title and the titles of the sites that publish it. */
  titles: string[];
  /** The titles of the space's pages. */
  pageTitles: string[];
  /** The Markdown of the space's pages. */
  bodies: string[];
  /** Terms the glossary has already, in the source language (never suggested again). */
  known: string[];
}

/** At most this many suggestions, the most frequent first. */
const LIMIT = 50;

/** File names and addresses have inner dots too: a word ending so is not a name. */
const FILE_ENDINGS = /^(md|mdx|html?|png|jpe?g|gif|svg|webp|pdf|json|ya?ml|txt|zip|tar|gz|com|org|net|io|dev|test|example|local|co|uk|de|fr|es)$/i;
/** Nor is a lower-case word ending in a language's extension (app.js); Node.js, with its capital, is. */
const CODE_ENDINGS = /^(js|ts|mjs|cjs|css|sh|py|rb|go|rs|java|exe|app)$/i;

/** Code, URLs and link targets carry no names a reader sees. */
function readableText(markdown: string): string {
  return markdown
    .replace(/^(```|~~~)[\s\S]*?^\1/gm, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/\]\([^)]*\)/g, '] ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\{%[^%]*%\}/g, ' ')
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ' ');
}

/** Words with an inner dot (Rocket.Chat, Node.js, ASP.NET) or an inner capital (GitHub, MongoDB, iOS). */
function productWords(text: string): string[] {
  const found: string[] = [];
  for (const [word] of text.matchAll(/[\p{L}\p{N}]+(?:[.][\p{L}\p{N}]+)+/gu)) {
    const parts = word.split('.');
    const ending = parts[parts.length - 1];
    if (CODE_ENDINGS.test(ending) && !/\p{Lu}/u.test(word)) continue;
    if (FILE_ENDINGS.test(ending) || /^\d+(\.\d+)*$/.test(word) || !/\p{L}/u.test(parts[parts.length - 1])) continue;
    // An abbreviation written with dots ("e.g", "i.e") is no name; a name has a capital or a word of three letters or more.
    if (!/\p{Lu}/u.test(word) && parts.every((part) => part.length < 3)) continue;
    found.push(word);
  }
  for (const [word] of text.matchAll(/(?<![\p{L}\p{N}.])\p{L}*\p{Ll}\p{Lu}[\p{L}\p{N}]*/gu)) found.push(word);
  return found;
}

/** The suggestions, most frequent first; titles before everything else. */
export function suggestGlossaryTerms(source: SuggestionSource): string[] {
  const known = new Set(source.known.map((term) => term.toLowerCase()));
  const counts = new Map<string, number>();
  const add = (term: string, weight = 1) => {
    const clean = term.trim();
    if (clean.length < 2 || known.has(clean.toLowerCase())) return;
    counts.set(clean, (counts.get(clean) ?? 0) + weight);
  };
  for (const title of source.titles) add(title, 1000);
  const pageTitles = new Set(source.pageTitles.map((title) => title.trim()).filter(Boolean));
  for (const body of source.bodies) {
    for (const [, text] of body.matchAll(/\[([^\]\n]+)\]\([^)]*\)/g)) if (pageTitles.has(text.trim())) add(text);
    for (const word of productWords(readableText(body))) add(word);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, LIMIT)
    .map(([term]) => term);
}
