/** A glossary entry as one run uses it: the term in the source language and its rendering in the target. */
export interface GlossaryTerm {
  source: string;
  target: string;
}

/** The terms of a glossary for one pair: entries that name both languages. */
export function termsFor(entries: Array<Record<string, string>>, from: string, to: string): GlossaryTerm[] {
  return entries
    .filter((entry) => entry[from] && entry[to])
    .map((entry) => ({ source: entry[from], target: entry[to] }))
    .sort((a, b) => b.source.length - a.source.length);
}
