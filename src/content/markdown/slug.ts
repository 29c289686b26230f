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

/**
 * A slug given explicitly (a page's `slug`, which Git imports take from the file's name): what `slugify`
 * does, but dots and underscores are kept, as GitBook keeps them in the addresses of files such as
 * `use-rocket.chat.md` (docs/decisions/0090-git-paths.md).
 */
export function keptSlug(slug: string, fallback = 'untitled'): string {
  const kept = slug
    .replace(/[ßæÆœŒøØđĐðÐþÞłŁıŋ&]/g, (char) => SPELLED[char] ?? char)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  return kept || fallback;
}

/** Hands out slugs unique within one set: the second "setup" is "setup-1", the third "setup-2". */
export class UniqueSlugs {
  private readonly taken = new Set<string>();
  /** Per base slug, the first suffix not yet tried: names only ever get taken, so earlier ones stay taken. */
  private readonly nextSuffix = new Map<string, number>();

  /** Takes `slug` if it is free, else the first free `slug-<n>` (linear in repeats, not quadratic). */
  claim(slug: string): string {
    let unique = slug;
    let n = this.nextSuffix.get(slug) ?? 1;
    if (this.taken.has(unique)) {
      do unique = `${slug}-${n++}`;
      while (this.taken.has(unique));
      this.nextSuffix.set(slug, n);
    }
    this.taken.add(unique);
    return unique;
  }
}
