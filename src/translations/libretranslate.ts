import { EngineError, type EngineCapabilities, type TranslateRequest, type TranslationEngine } from './engine.ts';
import { getJson, joinUrl, postJson } from './http-engine.ts';
import { isTranslationLanguage } from './languages.ts';

/** LibreTranslate (`POST /translate` with `format: html`, `GET /languages` for its pairs). */
export class LibreTranslateEngine implements TranslationEngine {
  readonly name = 'libretranslate';
  private cached: Promise<EngineCapabilities> | undefined;

  constructor(
    private readonly url: string,
    private readonly apiKey: string | undefined,
  ) {}

  capabilities(): Promise<EngineCapabilities> {
    this.cached ??= (async () => {
      const languages = (await getJson(joinUrl(this.url, '/languages'))) as Array<{ code?: unknown; targets?: unknown }>;
      const pairs: EngineCapabilities['pairs'] = [];
      for (const language of Array.isArray(languages) ? languages : []) {
        if (!isTranslationLanguage(language.code)) continue;
        for (const target of Array.isArray(language.targets) ? language.targets : []) {
          if (isTranslationLanguage(target) && target !== language.code) pairs.push({ from: language.code, to: target });
        }
      }
      return { pairs, formats: ['html'], glossary: false, instructions: false, maxSegments: 50, maxCharacters: 20_000 } satisfies EngineCapabilities;
    })().catch((error: unknown) => {
      this.cached = undefined;
      throw error;
    });
    return this.cached;
  }

  async translate(request: TranslateRequest): Promise<string[]> {
    const body: Record<string, unknown> = { q: request.segments, source: request.from, target: request.to, format: 'html' };
    if (this.apiKey) body.api_key = this.apiKey;
    const answer = (await postJson(joinUrl(this.url, '/translate'), body)) as { translatedText?: unknown };
    const texts = answer.translatedText;
    if (!Array.isArray(texts) || texts.some((text) => typeof text !== 'string')) throw new EngineError('LibreTranslate answered without a "translatedText" list.');
    return texts as string[];
  }
}
