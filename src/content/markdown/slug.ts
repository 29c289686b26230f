/**
 * Slugs for pages and headings: lower case ASCII, words joined by hyphens ("Über die Brücke!" →
 * "uber-die-brucke"). Letters that do not decompose to ASCII are spelled out where there is a common
 * spelling (ß → ss, æ → ae, ø → o, …) and dropped otherwise; a title left with nothing gets the fallback.
 */

const SPELLED: Record<string, string> = {
  ß: 'ss', æ: 'ae', Æ: 'ae', œ: 'oe', Œ: 'oe', ø: 'o', Ø: 'o', đ: 'd', Đ: 'd', ð: 'd', Ð: 'd', þ: 'th', Þ: 'th', ł: 'l', Ł: 'l', ı: 'i', ŋ: 'n', '&': ' and ',
};

/**
 * The slug of a title.
 *
 * @param title any text
 * @param fallback the slug when the title has no letter or digit that folds to ASCII
 */
export function slugify(title: string, fallback = 'untitled'): string {
  const slug = title
    .replace(/[ßæÆœŒøØđĐðÐþÞłŁıŋ&]/g, (char) => SPELLED[char] ?? char)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || fallback;
}

/** Hands out slugs unique within one set: the second "setup" is "setup-1", the third "setup-2". */
export class UniqueSlugs {
  private readonly taken = new Set<string>();

  /** Takes `slug` if it is free, else the first free `slug-<n>`. */
  claim(slug: string): string {
    let unique = slug;
    for (let n = 1; this.taken.has(unique); n++) unique = `${slug}-${n}`;
    this.taken.add(unique);
    return unique;
  }
}
