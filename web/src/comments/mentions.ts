/** A person a comment can mention: their id and the name shown after `@`. */
export interface Mentionable {
  id: string;
  name: string;
}

/** The `@query` being typed just before the caret, or null (an `@` starts a word; the query is up to 40 letters). */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|\s)@([\p{L}\p{N}._' -]{0,40})$/u.exec(text.slice(0, caret));
  if (!match) return null;
  const query = match[2];
  // "@Ann Lee" may hold a space, but a query that ends with one and matches nobody is plain text again.
  return { start: caret - query.length - 1, query };
}

/** The people whose name starts a word with the query, first those whose name starts with it. */
export function matching(people: Mentionable[], query: string, limit = 8): Mentionable[] {
  const q = query.trim().toLowerCase();
  const scored = people
    .map((person) => {
      const name = person.name.toLowerCase();
      const rank = name.startsWith(q) ? 0 : name.split(/\s+/).some((word) => word.startsWith(q)) ? 1 : -1;
      return { person, rank };
    })
    .filter((entry) => entry.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.person.name.localeCompare(b.person.name));
  return scored.slice(0, limit).map((entry) => entry.person);
}

/**
 * The text as Markdown with each `@Name` the person picked written as GitBook writes a mention,
 * `[Name](users/<id> "mention")`, which Quire reads back as a mention (and tells the person of).
 */
export function withMentions(text: string, picked: Mentionable[]): string {
  let out = text;
  for (const person of [...picked].sort((a, b) => b.name.length - a.name.length)) {
    const escaped = person.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const label = person.name.replace(/[[\]]/g, '');
    out = out.replace(new RegExp(`(^|\\s)@${escaped}(?![\\p{L}\\p{N}])`, 'gu'), (_all, before: string) => `${before}[${label}](users/${person.id} "mention")`);
  }
  return out;
}

/** A stored body shown as text: each mention as `@Name` again. */
export function mentionsAsText(markdown: string): string {
  return markdown.replace(/\[([^\]]*)\]\(users\/[^)\s]+ "mention"\)/g, '@$1');
}
