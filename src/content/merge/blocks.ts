import { diff3MergeRegions } from 'node-diff3';
import type { Root } from 'mdast';
import { normalizeSource } from '../markdown/parse.ts';
import { pageReader } from '../markdown/processors.ts';
import { splitTagLine } from '../markdown/tags.ts';
import { mergeText } from './text.ts';

/**
 * The top-level blocks of a page's Markdown, each as its own text: a block starts where a top-level
 * Markdown block starts outside every `{% tag %}` … `{% endtag %}` (or `<details>`) pair, so a hint, a
 * set of tabs or an expandable is one block with all it holds. Blank lines between blocks are dropped; the
 * blocks joined by one blank line give the page back (with its blank lines between blocks normalised).
 */
export function splitBlocks(markdown: string): string[] {
  const source = normalizeSource(markdown);
  if (source.trim() === '') return [];
  const tree = pageReader.parse(source) as Root;
  const lines = source.split('\n');
  const starts: number[] = [];
  let depth = 0;
  for (const child of tree.children) {
    const line = child.position?.start.line;
    if (line === undefined) continue;
    if (depth === 0 && (starts.length === 0 || line > starts[starts.length - 1])) starts.push(line);
    if (child.type === 'tagLine') {
      for (const segment of splitTagLine(child.value)) {
        if (segment.kind === 'open') depth++;
        else if (segment.kind === 'close') depth = Math.max(0, depth - 1);
      }
    }
  }
  if (starts.length === 0 || starts[0] !== 1) starts.unshift(1);
  const blocks: string[] = [];
  for (let index = 0; index < starts.length; index++) {
    const text = lines.slice(starts[index] - 1, (starts[index + 1] ?? lines.length + 1) - 1).join('\n').replace(/\s+$/, '');
    if (text.trim() !== '') blocks.push(text);
  }
  return blocks;
}

/** Blocks written back as a page's Markdown: one blank line between them. */
export function joinBlocks(blocks: string[]): string {
  return blocks.join('\n\n');
}

/**
 * A run of the page aligned block by block:
 * - `unchanged`: the same in all three versions;
 * - `space` / `change-request`: changed on that side only, taken as that side has it;
 * - `merged`: changed on both sides in lines that do not overlap, merged line by line as the merge engine
 *   merges bodies (or the same change on both);
 * - `conflict`: both sides changed the same lines; the person chooses.
 * `result` is what the merged page holds for the run (absent for a conflict).
 */
export interface BlockRun {
  status: 'unchanged' | 'space' | 'change-request' | 'merged' | 'conflict';
  base: string[];
  space: string[];
  changeRequest: string[];
  result?: string[];
}

/**
 * The three-way merge of a page's body shown by blocks: the blocks of each version aligned (diff3 over
 * whole blocks), and where both sides changed the same run of blocks, the merge engine's own line merge
 * (`mergeText`) decides whether they really conflict. So a run is a conflict only where the engine would
 * refuse the lines, and one set of merge rules serves both the merge and this view.
 */
export function mergeBlocks(base: string, changeRequest: string, space: string): BlockRun[] {
  const o = splitBlocks(base);
  const a = splitBlocks(changeRequest);
  const b = splitBlocks(space);
  const runs: BlockRun[] = [];
  for (const region of diff3MergeRegions(a, o, b)) {
    if ('buffer' in region) {
      const blocks = region.bufferContent as string[];
      if (region.buffer === 'o') runs.push({ status: 'unchanged', base: blocks, space: blocks, changeRequest: blocks, result: blocks });
      else if (region.buffer === 'a') runs.push({ status: 'change-request', base: [], space: [], changeRequest: blocks, result: blocks });
      else runs.push({ status: 'space', base: [], space: blocks, changeRequest: [], result: blocks });
      continue;
    }
    const unstable = region as { aContent: string[]; oContent: string[]; bContent: string[] };
    const [baseBlocks, mine, theirs] = [unstable.oContent, unstable.aContent, unstable.bContent];
    // diff3 joins edits of neighbouring blocks into one region; where every version has as many blocks
    // there, each was edited in place and is decided on its own.
    if (baseBlocks.length === mine.length && baseBlocks.length === theirs.length) {
      baseBlocks.forEach((block, index) => runs.push(decide([block], [mine[index]], [theirs[index]])));
    } else runs.push(decide(baseBlocks, mine, theirs));
  }
  // Consecutive runs taken without a choice are joined, so the screen shows fewer, longer stretches.
  const joined: BlockRun[] = [];
  for (const run of runs) {
    const last = joined[joined.length - 1];
    if (last && last.status === run.status && run.status !== 'conflict') {
      last.base = [...last.base, ...run.base];
      last.space = [...last.space, ...run.space];
      last.changeRequest = [...last.changeRequest, ...run.changeRequest];
      last.result = [...(last.result ?? []), ...(run.result ?? [])];
    } else joined.push({ ...run });
  }
  return joined;
}

/** One run that either side may have changed: taken, merged line by line, or a conflict. */
function decide(base: string[], mine: string[], theirs: string[]): BlockRun {
  const [o, a, b] = [joinBlocks(base), joinBlocks(mine), joinBlocks(theirs)];
  if (a === o && b === o) return { status: 'unchanged', base, space: theirs, changeRequest: mine, result: mine };
  if (b === o) return { status: 'change-request', base, space: theirs, changeRequest: mine, result: mine };
  if (a === o) return { status: 'space', base, space: theirs, changeRequest: mine, result: theirs };
  const merged = mergeText(o, a, b);
  if (merged.merged) return { status: 'merged', base, space: theirs, changeRequest: mine, result: splitBlocks(merged.text) };
  return { status: 'conflict', base, space: theirs, changeRequest: mine };
}

/** How the person settles one conflicting run. */
export type BlockChoice = { take: 'space' | 'change-request' | 'both' } | { take: 'edited'; markdown: string };

/**
 * The page's merged Markdown from the runs and one choice per conflicting run, in order ("both": the
 * change request's blocks, then the space's).
 */
export function applyBlockChoices(runs: BlockRun[], choices: BlockChoice[]): string {
  const blocks: string[] = [];
  let next = 0;
  for (const run of runs) {
    if (run.status !== 'conflict') {
      blocks.push(...(run.result ?? []));
      continue;
    }
    const choice = choices[next++];
    if (choice.take === 'space') blocks.push(...run.space);
    else if (choice.take === 'change-request') blocks.push(...run.changeRequest);
    else if (choice.take === 'both') blocks.push(...run.changeRequest, ...run.space);
    else if (choice.take === 'edited' && choice.markdown.trim() !== '') blocks.push(choice.markdown.replace(/\s+$/, ''));
  }
  return joinBlocks(blocks);
}
