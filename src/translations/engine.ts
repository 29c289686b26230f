import { repairBrokenMarkup } from './markup-fallback.ts';

/**
 * The one small interface every machine-translation engine implements. Segments are text in a tiny markup:
 * `&amp;`, `&lt;`, `&gt;` escape the text, `<x id="3"/>` stands for something that must come back as it is
 * (an inline node, a code span, a glossary term), and `<x id="4">…</x>` wraps text that carries marks or a
 * link: the engine translates the text inside and keeps the tags (src/translations/segments.ts).
 */

/** What an engine can do, so a translation it cannot run is refused when it is created. */
export interface EngineCapabilities {
  /** The pairs it translates, as ISO 639-1 codes (the client's `TranslationLanguage`). */
  pairs: Array<{ from: string; to: string }>;
  /** Formats of segment it understands: all of ours speak the markup above (as HTML or XML). */
  formats: Array<'html' | 'xml'>;
  /** Whether it can be given the glossary itself; Quire enforces glossary terms with placeholders for the others. */
  glossary: boolean;
  /** Whether it honours free-form instructions (only language models do). */
  instructions: boolean;
  /** At most this many segments per request. */
  maxSegments: number;
  /** At most about this many characters per request. */
  maxCharacters: number;
}

export interface TranslateRequest {
  from: string;
  to: string;
  segments: string[];
  /** Plain-text instructions, for engines that honour them. */
  instructions?: string;
}

export interface TranslationEngine {
  /** 'apertium', 'deepl', 'libretranslate', 'openai'. */
  readonly name: string;
  capabilities(): Promise<EngineCapabilities>;
  /** The segments translated, in the same order; throws EngineError when the engine fails. */
  translate(request: TranslateRequest): Promise<string[]>;
}

/** An engine that failed or answered something unusable: the translation stays pending and is retried. */
export class EngineError extends Error {
  override name = 'EngineError';
}

/** Whether an engine translates a pair. */
export function supportsPair(capabilities: EngineCapabilities, from: string, to: string): boolean {
  return capabilities.pairs.some((pair) => pair.from === from && pair.to === to);
}

/** "en → es, es → en" for messages. */
export function describePairs(capabilities: EngineCapabilities): string {
  return capabilities.pairs.length ? capabilities.pairs.map((pair) => `${pair.from} → ${pair.to}`).join(', ') : 'none';
}

/** Splits segments into the batches an engine accepts: at most `maxSegments` and about `maxCharacters` each. */
export function batches(segments: string[], capabilities: Pick<EngineCapabilities, 'maxSegments' | 'maxCharacters'>): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const segment of segments) {
    if (current.length > 0 && (current.length >= capabilities.maxSegments || size + segment.length > capabilities.maxCharacters)) {
      out.push(current);
      current = [];
      size = 0;
    }
    current.push(segment);
    size += segment.length;
  }
  if (current.length) out.push(current);
  return out;
}

/** Translates any number of segments, batch after batch, as the engine answers them. */
async function translateBatches(engine: TranslationEngine, request: TranslateRequest): Promise<string[]> {
  const capabilities = await engine.capabilities();
  const out: string[] = [];
  for (const batch of batches(request.segments, capabilities)) {
    const translated = await engine.translate({ ...request, segments: batch });
    if (translated.length !== batch.length) throw new EngineError(`The ${engine.name} engine answered ${translated.length} texts for ${batch.length}.`);
    out.push(...translated);
  }
  return out;
}

export interface TranslatedSegments {
  segments: string[];
  /** Segments whose markup the engine broke, translated again piece by piece (markup-fallback.ts). */
  piecewise: number[];
  /** Segments that kept their source text: even piece by piece, the engine's answer was unusable. */
  kept: number[];
}

/**
 * Translates any number of segments, batch after batch; a segment whose markup the engine broke is
 * translated again piece by piece in the same run, or keeps its source text (never a corrupted block).
 */
export async function translateSegments(engine: TranslationEngine, request: TranslateRequest): Promise<TranslatedSegments> {
  const translated = await translateBatches(engine, request);
  return repairBrokenMarkup(request, translated, (plain) => translateBatches(engine, plain));
}

/** The segments of `translateSegments`, for callers that need only the texts. */
export async function translateAll(engine: TranslationEngine, request: TranslateRequest): Promise<string[]> {
  return (await translateSegments(engine, request)).segments;
}
