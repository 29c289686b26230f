/** The languages of the client's `TranslationLanguage`, and their names and codes in other systems. */
export const TRANSLATION_LANGUAGES = [
  'en', 'fr', 'de', 'es', 'it', 'pt', 'ru', 'ja', 'zh', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv', 'no', 'da', 'fi', 'el', 'cs',
  'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl',
] as const;
export type TranslationLanguage = (typeof TRANSLATION_LANGUAGES)[number];

/** English names, for titles of result spaces and for prompts. */
export const LANGUAGE_NAMES: Record<TranslationLanguage, string> = {
  en: 'English', fr: 'French', de: 'German', es: 'Spanish', it: 'Italian', pt: 'Portuguese', ru: 'Russian', ja: 'Japanese', zh: 'Chinese',
  ko: 'Korean', ar: 'Arabic', hi: 'Hindi', nl: 'Dutch', pl: 'Polish', tr: 'Turkish', sv: 'Swedish', no: 'Norwegian', da: 'Danish',
  fi: 'Finnish', el: 'Greek', cs: 'Czech', hu: 'Hungarian', ro: 'Romanian', th: 'Thai', vi: 'Vietnamese', id: 'Indonesian', ms: 'Malay',
  he: 'Hebrew', uk: 'Ukrainian', sk: 'Slovak', bg: 'Bulgarian', hr: 'Croatian', lt: 'Lithuanian', lv: 'Latvian', et: 'Estonian', sl: 'Slovenian',
};

/** Names in the language itself, for a reader's language switcher. */
export const LANGUAGE_ENDONYMS: Record<TranslationLanguage, string> = {
  en: 'English', fr: 'Français', de: 'Deutsch', es: 'Español', it: 'Italiano', pt: 'Português', ru: 'Русский', ja: '日本語', zh: '中文',
  ko: '한국어', ar: 'العربية', hi: 'हिन्दी', nl: 'Nederlands', pl: 'Polski', tr: 'Türkçe', sv: 'Svenska', no: 'Norsk', da: 'Dansk',
  fi: 'Suomi', el: 'Ελληνικά', cs: 'Čeština', hu: 'Magyar', ro: 'Română', th: 'ไทย', vi: 'Tiếng Việt', id: 'Bahasa Indonesia', ms: 'Bahasa Melayu',
  he: 'עברית', uk: 'Українська', sk: 'Slovenčina', bg: 'Български', hr: 'Hrvatski', lt: 'Lietuvių', lv: 'Latviešu', et: 'Eesti', sl: 'Slovenščina',
};

/** ISO 639-3 codes, as Apertium names its pairs (`eng-spa`). */
export const ISO_639_3: Record<TranslationLanguage, string> = {
  en: 'eng', fr: 'fra', de: 'deu', es: 'spa', it: 'ita', pt: 'por', ru: 'rus', ja: 'jpn', zh: 'zho', ko: 'kor', ar: 'ara', hi: 'hin',
  nl: 'nld', pl: 'pol', tr: 'tur', sv: 'swe', no: 'nob', da: 'dan', fi: 'fin', el: 'ell', cs: 'ces', hu: 'hun', ro: 'ron', th: 'tha',
  vi: 'vie', id: 'ind', ms: 'msa', he: 'heb', uk: 'ukr', sk: 'slk', bg: 'bul', hr: 'hrv', lt: 'lit', lv: 'lav', et: 'est', sl: 'slv',
};

export function isTranslationLanguage(value: unknown): value is TranslationLanguage {
  return typeof value === 'string' && (TRANSLATION_LANGUAGES as readonly string[]).includes(value);
}

/** The client's language of an ISO 639-3 (or 639-2) code Apertium uses; undefined when it is not one of them. */
export function fromIso6393(code: string): TranslationLanguage | undefined {
  const base = code.split(/[_-]/)[0];
  const aliases: Record<string, TranslationLanguage> = { nor: 'no', nno: 'no', zho: 'zh', cmn: 'zh', msa: 'ms', zlm: 'ms', hbs: 'hr' };
  if (aliases[base]) return aliases[base];
  return (Object.keys(ISO_639_3) as TranslationLanguage[]).find((language) => ISO_639_3[language] === base);
}
