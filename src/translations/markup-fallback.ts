/** What an engine is asked (engine.ts's TranslateRequest, which calls this file: named here so neither imports the other). */
interface TranslateRequest {
  from: string;
  to: string;
  segments: string[];
  instructions?: string;
}

/**
 * What a run does when an engine breaks a segment's markup. Engines reorder words, and a rule-based one
 * such as Apertium moves tags with them: "The <x id="1">quick brown</x> fox's <x id="2">old</x> files" came
 * back with a closing tag before its opening one, and that segment (a whole hint, a bold heading) then
 * stayed in English. Within the same run, such a segment is sent again piece by piece: each run of text
 * between its tags on its own, the tags put back where they were, so the markup cannot break (the words
 * of one piece may read less well than a whole sentence). When even that fails (the engine lost a piece
 * or added markup), the segment keeps its source text and is reported as kept: never a corrupted block.
 */

const TAG = /<x\s+id="(\d+)"\s*\/>|<x\s+id="(\d+)"\s*>|<\/x\s*>/g;

/** Whether a translation has the source's placeholders, each once, void or wrapping as in the source, properly nested. */
export function markupSurvived(source: string, translated: string): boolean {
  const expected = new Map<string, 'void' | 'open'>();
  for (const match of source.matchAll(TAG)) {
    if (match[1] !== undefined) expected.set(match[1], 'void');
    else if (match[2] !== undefined) expected.set(match[2], 'open');
  }
  const seen = new Set<string>();
  let depth = 0;
  for (const match of translated.matchAll(TAG)) {
    const id = match[1] ?? match[2];
    if (id === undefined) {
      if (--depth < 0) return false;
      continue;
    }
    if (seen.has(id) || expected.get(id) !== (match[1] !== undefined ? 'void' : 'open')) return false;
    seen.add(id);
    if (match[2] !== undefined) depth++;
  }
  // Anything else that looks like a tag was added by the engine (segments.ts drops it); a stray `<x` is not.
  return depth === 0 && seen.size === expected.size && !/<x(?![^>]*>)/.test(translated.replace(TAG, ''));
}

type Piece = { tag: string } | { text: string };

/** A segment as its tags and the runs of text between them. */
export function splitMarkup(segment: string): Piece[] {
  const pieces: Piece[] = [];
  let at = 0;
  for (const match of segment.matchAll(TAG)) {
    if (match.index! > at) pieces.push({ text: segment.slice(at, match.index) });
    pieces.push({ tag: match[0] });
    at = match.index! + match[0].length;
  }
  if (at < segment.length) pieces.push({ text: segment.slice(at) });
  return pieces;
}

const WORDS = /[\p{L}]/u;

export interface FallbackResult {
  /** The segments, the broken ones replaced by their piecewise translation or their source. */
  segments: string[];
  /** Indexes of the segments translated piece by piece. */
  piecewise: number[];
  /** Indexes of the segments that kept their source text. */
  kept: number[];
}

/**
 * Finds the segments whose markup the engine broke and translates them again piece by piece (one more
 * request for all of them); `translate` is the run's own (batched) translation of plain segments.
 */
export async function repairBrokenMarkup(
  request: TranslateRequest,
  translated: string[],
  translate: (request: TranslateRequest) => Promise<string[]>,
): Promise<FallbackResult> {
  const segments = [...translated];
  const broken = request.segments.map((source, index) => (markupSurvived(source, translated[index] ?? '') ? -1 : index)).filter((index) => index >= 0);
  if (broken.length === 0) return { segments, piecewise: [], kept: [] };
  const split = broken.map((index) => splitMarkup(request.segments[index]));
  const texts: string[] = [];
  for (const pieces of split) for (const piece of pieces) if ('text' in piece && WORDS.test(piece.text)) texts.push(piece.text.trim());
  let answers: string[] = [];
  try {
    answers = texts.length ? await translate({ ...request, segments: texts }) : [];
  } catch {
    answers = [];
  }
  const piecewise: number[] = [];
  const kept: number[] = [];
  let next = 0;
  broken.forEach((index, n) => {
    let out = '';
    let ok = answers.length === texts.length;
    for (const piece of split[n]) {
      if ('tag' in piece) out += piece.tag;
      else if (!WORDS.test(piece.text)) out += piece.text;
      else {
        const answer = answers[next++] ?? '';
        // A piece keeps its own surrounding spaces; one the engine answered with markup of its own is refused.
        if (/[<>]/.test(answer.replace(/&(lt|gt);/g, '')) || answer.trim() === '') ok = false;
        out += /^\s*/.exec(piece.text)![0] + answer.trim() + /\s*$/.exec(piece.text)![0];
      }
    }
    if (ok && markupSurvived(request.segments[index], out)) {
      segments[index] = out;
      piecewise.push(index);
    } else {
      segments[index] = request.segments[index];
      kept.push(index);
    }
  });
  return { segments, piecewise, kept };
}
