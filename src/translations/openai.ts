import { EngineError, type EngineCapabilities, type TranslateRequest, type TranslationEngine } from './engine.ts';
import { joinUrl, postJson } from './http-engine.ts';
import { LANGUAGE_NAMES, TRANSLATION_LANGUAGES, type TranslationLanguage } from './languages.ts';

/**
 * Any OpenAI-compatible `/v1/chat/completions` endpoint (Ollama, vLLM, a hosted service), with plain fetch.
 * The one engine that honours a translation's instructions. The segments go as a JSON array and must come
 * back as a JSON array of the same length.
 */
export class OpenAIEngine implements TranslationEngine {
  readonly name = 'openai';

  constructor(
    private readonly url: string,
    private readonly apiKey: string | undefined,
    private readonly model: string,
  ) {}

  async capabilities(): Promise<EngineCapabilities> {
    const pairs = TRANSLATION_LANGUAGES.flatMap((from) => TRANSLATION_LANGUAGES.filter((to) => to !== from).map((to) => ({ from, to })));
    return { pairs, formats: ['xml'], glossary: false, instructions: true, maxSegments: 40, maxCharacters: 12_000 };
  }

  async translate(request: TranslateRequest): Promise<string[]> {
    const from = LANGUAGE_NAMES[request.from as TranslationLanguage] ?? request.from;
    const to = LANGUAGE_NAMES[request.to as TranslationLanguage] ?? request.to;
    const system = [
      `Translate each string of the JSON array from ${from} to ${to}.`,
      'Keep every <x id="…"/> and <x id="…">…</x> tag exactly, around the translated words they belong to; keep &amp; &lt; &gt; escapes.',
      'Answer with a JSON array of the translated strings only, in the same order and of the same length.',
      request.instructions ? `Instructions from the documentation team: ${request.instructions}` : '',
    ].filter(Boolean).join('\n');
    const answer = (await postJson(
      joinUrl(this.url, '/v1/chat/completions'),
      { model: this.model, temperature: 0, messages: [{ role: 'system', content: system }, { role: 'user', content: JSON.stringify(request.segments) }] },
      this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {},
    )) as { choices?: Array<{ message?: { content?: unknown } }> };
    const content = answer.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new EngineError('The model answered without a message.');
    const json = /\[[\s\S]*\]/.exec(content)?.[0];
    let texts: unknown;
    try {
      texts = json ? JSON.parse(json) : undefined;
    } catch {
      texts = undefined;
    }
    if (!Array.isArray(texts) || texts.length !== request.segments.length || texts.some((t) => typeof t !== 'string')) {
      throw new EngineError(`The model did not answer a JSON array of ${request.segments.length} strings.`);
    }
    return texts as string[];
  }
}
