import { EngineError, type EngineCapabilities, type TranslateRequest, type TranslationEngine } from './engine.ts';
import { cleanApertium, fromApertium, toApertium } from './apertium.ts';
import { joinUrl } from './http-engine.ts';
import { fromIso6393, ISO_639_3 } from './languages.ts';

/**
 * Apertium through its `apertium-apy` HTTP server (QUIRE_TRANSLATION_ENGINE=apertium with
 * QUIRE_TRANSLATION_URL): `GET /listPairs` for the pairs, `POST /translate` (form-encoded `langpair`, `q`,
 * `format=html`, `markUnknown=no`) for a batch, each segment in its own `<p>` as with the command.
 */
export class ApertiumApyEngine implements TranslationEngine {
  readonly name = 'apertium';
  private cached: Promise<EngineCapabilities> | undefined;

  constructor(private readonly url: string) {}

  capabilities(): Promise<EngineCapabilities> {
    this.cached ??= (async () => {
      const answer = (await call(joinUrl(this.url, '/listPairs'), { method: 'GET' })) as { responseData?: Array<{ sourceLanguage?: string; targetLanguage?: string }> };
      const pairs: EngineCapabilities['pairs'] = [];
      for (const pair of answer.responseData ?? []) {
        const from = fromIso6393(pair.sourceLanguage ?? '');
        const to = fromIso6393(pair.targetLanguage ?? '');
        if (from && to && from !== to && !pairs.some((p) => p.from === from && p.to === to)) pairs.push({ from, to });
      }
      return { pairs, formats: ['html'], glossary: false, instructions: false, maxSegments: 500, maxCharacters: 50_000 } satisfies EngineCapabilities;
    })().catch((error: unknown) => {
      this.cached = undefined;
      throw error;
    });
    return this.cached;
  }

  async translate(request: TranslateRequest): Promise<string[]> {
    const langpair = `${ISO_639_3[request.from as keyof typeof ISO_639_3]}|${ISO_639_3[request.to as keyof typeof ISO_639_3]}`;
    const q = request.segments.map((segment, index) => `<p id="s${index}">${toApertium(segment).replace(/\n/g, '<br/>')}</p>`).join('\n');
    const body = new URLSearchParams({ langpair, q, format: 'html', markUnknown: 'no' });
    const answer = (await call(joinUrl(this.url, '/translate'), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })) as { responseData?: { translatedText?: unknown } };
    const text = answer.responseData?.translatedText;
    if (typeof text !== 'string') throw new EngineError('apertium-apy answered without responseData.translatedText.');
    const found = new Map<number, string>();
    for (const match of text.matchAll(/<p id="s(\d+)">([\s\S]*?)<\/p>/g)) found.set(Number(match[1]), fromApertium(match[2].replace(/<br\/>/g, '\n')));
    return request.segments.map((source, index) => {
      const segment = found.get(index);
      if (segment === undefined) throw new EngineError(`apertium-apy (${langpair}) lost segment ${index} of ${request.segments.length}.`);
      return cleanApertium(source, segment);
    });
  }
}

async function call(url: string, init: RequestInit): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(120_000) });
  } catch (error) {
    throw new EngineError(`apertium-apy at ${new URL(url).origin} did not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = await response.text();
  if (!response.ok) throw new EngineError(`apertium-apy answered ${response.status} to ${new URL(url).pathname}: ${text.slice(0, 300)}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new EngineError(`apertium-apy answered ${new URL(url).pathname} with something that is not JSON.`);
  }
}
