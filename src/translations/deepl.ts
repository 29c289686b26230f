import { EngineError, type EngineCapabilities, type TranslateRequest, type TranslationEngine } from './engine.ts';
import { joinUrl, postJson } from './http-engine.ts';
import { TRANSLATION_LANGUAGES } from './languages.ts';

/** The client's languages DeepL translates (https://developers.deepl.com/docs/resources/supported-languages). */
const DEEPL = ['en', 'fr', 'de', 'es', 'it', 'pt', 'ru', 'ja', 'zh', 'ko', 'ar', 'nl', 'pl', 'tr', 'sv', 'no', 'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'he', 'uk', 'sk', 'bg', 'lt', 'lv', 'et', 'sl'];

function sourceCode(language: string): string {
  return language === 'no' ? 'NB' : language.toUpperCase();
}

function targetCode(language: string): string {
  if (language === 'en') return 'EN-US';
  if (language === 'pt') return 'PT-PT';
  return sourceCode(language);
}

/**
 * DeepL's API (`POST /v2/translate`): up to 50 texts per request, `tag_handling: xml` so placeholders stay
 * where they are. The key goes in `Authorization: DeepL-Auth-Key …`. The base URL is
 * https://api.deepl.com (or api-free.deepl.com) or any server speaking the same API.
 */
export class DeepLEngine implements TranslationEngine {
  readonly name = 'deepl';

  constructor(
    private readonly url: string,
    private readonly apiKey: string | undefined,
  ) {}

  async capabilities(): Promise<EngineCapabilities> {
    const languages = TRANSLATION_LANGUAGES.filter((language) => DEEPL.includes(language));
    const pairs = languages.flatMap((from) => languages.filter((to) => to !== from).map((to) => ({ from, to })));
    return { pairs, formats: ['xml'], glossary: false, instructions: false, maxSegments: 50, maxCharacters: 100_000 };
  }

  async translate(request: TranslateRequest): Promise<string[]> {
    const answer = (await postJson(
      joinUrl(this.url, '/v2/translate'),
      { text: request.segments, source_lang: sourceCode(request.from), target_lang: targetCode(request.to), tag_handling: 'xml', preserve_formatting: true },
      this.apiKey ? { authorization: `DeepL-Auth-Key ${this.apiKey}` } : {},
    )) as { translations?: Array<{ text?: unknown }> };
    const texts = answer.translations?.map((item) => item.text);
    if (!texts || texts.some((text) => typeof text !== 'string')) throw new EngineError('DeepL answered without a "translations" list of texts.');
    return texts as string[];
  }
}
