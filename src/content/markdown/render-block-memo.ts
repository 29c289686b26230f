/**
 * Turning a document's top-level blocks into Markdown tree nodes with each block remembered by its content:
 * a page written again (a save after one paragraph changed, the canonical form of the text it replaces)
 * converts only the blocks it had not written before. What a block's nodes depend on besides the block:
 * the answers of the writer's hooks (where a page or file is, its title…), which differ from page to page.
 * A block is remembered with the hooks it asked and what they answered, and found again only where the
 * same hooks give the same answers (asked again, in the same order); a block that wrote a footnote (whose
 * number depends on the page) is not remembered. Switched off with the other memos (memo.ts).
 */
import type { BlockContent } from 'mdast';
import { BoundedMemo, markdownMemoEnabled } from './memo.ts';
import type { RenderContext } from './render-context.ts';
import type { RenderOptions } from './refs.ts';
import type { DocumentBlock } from './types.ts';

/** Characters of keys remembered (the nodes take a few times that in memory). */
const BLOCK_BUDGET = 4_000_000;

type Hook = 'fileUrl' | 'refUrl' | 'refTitle' | 'openApiSource' | 'reusableContentUrl';
const HOOKS: readonly Hook[] = ['fileUrl', 'refUrl', 'refTitle', 'openApiSource', 'reusableContentUrl'];

interface Asked {
  hook: Hook;
  argument: string;
  answer: string | undefined;
}

interface Remembered {
  nodes: readonly BlockContent[];
  asked: readonly Asked[];
}

const blocks = new BoundedMemo<Remembered>(BLOCK_BUDGET);

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * The writer's hooks, each call noted while a block is converted: what `renderMarkdown` gives its parts as
 * their options (nested writes of a block — the inside of a hint, a caption — ask through it too).
 */
export class AskedHooks {
  readonly options: RenderOptions;
  private noting: Asked[] | null = null;
  /** Which hooks the caller gave (a block's nodes differ where a hook is absent): part of every key. */
  readonly present: string;

  constructor(private readonly given: RenderOptions) {
    this.present = HOOKS.map((hook) => (given[hook] ? '1' : '0')).join('');
    const options: RenderOptions = {};
    for (const hook of HOOKS) {
      const answer = given[hook] as ((argument: never) => string | undefined) | undefined;
      if (!answer) continue;
      (options as Record<Hook, unknown>)[hook] = (argument: never) => {
        const value = answer(argument);
        this.noting?.push({ hook, argument: JSON.stringify(argument), answer: value });
        return value;
      };
    }
    this.options = options;
  }

  /** Whether every hook a remembered block asked answers as it did then. */
  answersAsBefore(asked: readonly Asked[]): boolean {
    return asked.every(({ hook, argument, answer }) => (this.given[hook] as ((argument: unknown) => string | undefined) | undefined)?.(JSON.parse(argument)) === answer);
  }

  /** Runs `convert`, answering what it converted and the hooks it asked. */
  noted<T>(convert: () => T): { value: T; asked: Asked[] } {
    const outer = this.noting;
    const asked: Asked[] = [];
    this.noting = asked;
    try {
      return { value: convert(), asked };
    } finally {
      this.noting = outer;
      outer?.push(...asked);
    }
  }
}

/**
 * The Markdown tree nodes of a document's top-level blocks, as `convert` gives them for each block, through
 * the memo. `ctx.options` must be `hooks.options`; `notes()` counts the footnotes written so far.
 */
export function rememberedBlocks(list: DocumentBlock[], ctx: RenderContext, hooks: AskedHooks, notes: () => number, convert: (block: DocumentBlock, ctx: RenderContext) => BlockContent[]): BlockContent[] {
  if (!markdownMemoEnabled()) return list.flatMap((block) => convert(block, ctx));
  const out: BlockContent[] = [];
  for (const block of list) {
    const key = `${hooks.present}\u0000${JSON.stringify(block)}`;
    const known = blocks.get(key);
    if (known && hooks.answersAsBefore(known.asked)) {
      out.push(...known.nodes);
      continue;
    }
    const before = notes();
    const { value, asked } = hooks.noted(() => convert(block, ctx));
    if (notes() === before) blocks.set(key, { nodes: deepFreeze(value), asked }, key.length);
    out.push(...value);
  }
  return out;
}

/** Forgets every remembered block (tests). */
export function forgetBlocks(): void {
  blocks.clear();
}
