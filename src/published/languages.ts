import type { RevisionTree, TreePage } from '../content/tree.ts';
import { LANGUAGE_ENDONYMS, isTranslationLanguage } from '../translations/languages.ts';
import { firstPage } from './navigation.ts';
import { variantHref, type SiteView, type VariantView } from './model.ts';
import { escapeAttribute, escapeHtml } from './render/escape.ts';

/**
 * Languages in the reader. When the variants of a section (or of a site without sections) are the same
 * content in different languages — each variant's space declares its `language`, all different, as a
 * translation and its source do — the reader offers them as languages: a switcher that leads to the same
 * page in the other language (a translation keeps its source's page paths), `lang` on the page, and
 * `hreflang` alternates for search engines.
 */

export interface LanguageVariant {
  variant: VariantView;
  language: string;
}

/** The language variants beside `current`, or null when its siblings are not a set of languages. */
export function languageVariants(view: SiteView, current: VariantView): LanguageVariant[] | null {
  const siblings = current.section ? current.section.variants : view.variants;
  if (siblings.length < 2) return null;
  const languages = siblings.map((variant) => variant.language);
  if (languages.some((language) => !language) || new Set(languages).size !== languages.length) return null;
  return siblings.map((variant) => ({ variant, language: variant.language! }));
}

/** The path of a page below its variant's root ('' for the first page, which is the variant's root). */
function pathBelow(tree: RevisionTree, page: TreePage): string | null {
  return firstPage(tree) === page ? null : page.path;
}

/** `<link rel="alternate" hreflang>` targets: the same page in every language, and the default variant as x-default. */
export function languageAlternates(view: SiteView, languages: LanguageVariant[], tree: RevisionTree, page: TreePage): Array<{ hreflang: string; href: string }> {
  const path = pathBelow(tree, page);
  const links = languages.map(({ variant, language }) => ({ hreflang: language, href: `${view.origin}${variantHref(view, variant, path)}` }));
  const fallback = languages.find(({ variant }) => variant.isDefault) ?? languages[0];
  links.push({ hreflang: 'x-default', href: `${view.origin}${variantHref(view, fallback.variant, path)}` });
  return links;
}

/** The language switcher: each language by its own name, leading to the same page in it. */
export function languageSwitcher(view: SiteView, current: VariantView, languages: LanguageVariant[], tree: RevisionTree, page: TreePage): string {
  const path = pathBelow(tree, page);
  const name = (language: string) => (isTranslationLanguage(language) ? LANGUAGE_ENDONYMS[language] : language);
  const items = languages
    .map(({ variant, language }) => {
      const here = variant.id === current.id;
      return `<li><a href="${escapeAttribute(variantHref(view, variant, path))}" hreflang="${escapeAttribute(language)}" lang="${escapeAttribute(language)}"${here ? ' aria-current="true" class="current"' : ''}>${escapeHtml(name(language))}</a></li>`;
    })
    .join('');
  const currentLanguage = current.language ?? '';
  return `<nav class="variant-switcher language-switcher" aria-label="Languages"><details><summary><span class="visually-hidden">Language: </span>${escapeHtml(name(currentLanguage))}</summary><ul>${items}</ul></details></nav>`;
}
