import { createHash } from 'node:crypto';
import { parseMarkdown } from '../content/markdown/index.ts';
import { LruCache } from '../lru.ts';
import { refuseNul } from '../http/text-rules.ts';
import { PayloadTooLarge } from '../errors.ts';
import { FrontmatterError } from '../content/markdown/frontmatter.ts';
import { MarkdownLimitError } from '../content/markdown/limits.ts';
import { INLINE_BELOW, runTask, runTaskInBatches, workerTask, type TaskErrorClass } from '../workers/pool.ts';
import { markdownPage, type MarkdownPageOptions } from './markdown.ts';
import type { ImportedPage } from './types.ts';

/**
 * The CPU-heavy steps of an import, as pure functions that run on the worker pool (src/workers/pool.ts)
 * when their Markdown is large: reading a Markdown file into a page, and reading the references of a
 * page's body. Each reads the page through parseMarkdown, which refuses a page beyond the bounds of a page
 * (src/content/markdown/limits.ts) with the same 400 or 413 on either thread.
 */

const ERRORS: TaskErrorClass[] = [MarkdownLimitError, FrontmatterError];

/** A Markdown file as a page (markdown.ts), read once so that a page beyond the bounds is refused now. */
export function markdownSourcePage(input: { text: string; options: MarkdownPageOptions }): ImportedPage {
  const page = markdownPage(input.text, input.options);
  parseMarkdown(page.markdown ?? '');
  return page;
}

/** A page's body, and its name in refusals. */
export interface NamedBody {
  markdown: string;
  name: string;
}

/** Every image, file and link reference each body makes, as written, in order; the first body beyond the bounds throws. */
export function markdownReferences(bodies: NamedBody[]): string[][] {
  referenceStats.readHere += bodies.length;
  return bodies.map(({ markdown, name }) => {
    const references: string[] = [];
    const note = (reference: string) => {
      references.push(reference);
      return undefined;
    };
    try {
      parseMarkdown(markdown, { resolveFile: note, resolveLink: note });
    } catch (error) {
      throw naming(error, name);
    }
    return references;
  });
}

/** A page's refusal with the page's name in front, so that the refusal of one page of an archive says which: the same class, the same status. */
function naming(error: unknown, name: string): unknown {
  if (!(error instanceof MarkdownLimitError || error instanceof PayloadTooLarge)) return error;
  return new (error.constructor as TaskErrorClass)(`"${name}": ${error.message}`);
}

const SOURCE_PAGE = workerTask(import.meta.url, 'markdownSourcePage', markdownSourcePage);
const REFERENCES = workerTask(import.meta.url, 'markdownReferences', markdownReferences);

/** markdownSourcePage, on a worker when the file is large; `what` names it in a refusal, `signal` is the import's deadline. */
export async function readMarkdownPage(text: string, options: MarkdownPageOptions, what: string, signal?: AbortSignal): Promise<ImportedPage> {
  refuseNul(text, what);
  return runTask(SOURCE_PAGE, { text, options }, { size: text.length, what, signal, errors: ERRORS });
}

/** A body just long enough to go to a worker, with a link and an image: reading it loads every module the reader needs. */
const WARMING_BODY = `[a](a.md) ![b](b.png)\n\n${'Warming the Markdown reader. '.repeat(Math.ceil(INLINE_BELOW / 29))}`;

/**
 * Starts `threads` worker threads of the pool and loads the Markdown reader in each, while the caller goes
 * on (unpacking an archive): a thread's first task loads the reader's modules, which costs as much as a
 * large batch of pages, and would otherwise both wait for the unpack to end and count against that
 * batch's time limit (a valid archive was refused under load). Each warming task is bounded by the
 * import's deadline alone; it answers nothing and never fails the import (a real batch that follows meets
 * the same fault and reports it).
 */
export function warmReaders(threads: number, signal?: AbortSignal, timeoutMs?: number): void {
  loadReaders(threads, signal, timeoutMs).catch(() => undefined);
}

/**
 * Loads the Markdown reader in `threads` threads of the pool (one warming task each, at once: each takes a
 * thread of its own); resolves when all have, rejects with the first failure. `quire serve` calls it at start
 * with QUIRE_WORKERS_WARM, so that no import or search index waits for the threads to load the reader
 * (decisions/0142); warmReaders, at each archive import, then finds them loaded and costs a hop a thread.
 */
export async function loadReaders(threads: number, signal?: AbortSignal, timeoutMs?: number): Promise<void> {
  const body = [{ markdown: WARMING_BODY, name: 'warming' }];
  await Promise.all(Array.from({ length: threads }, () => runTask(REFERENCES, body, { size: WARMING_BODY.length, what: 'the Markdown reader', signal, timeoutMs, errors: ERRORS, pooled: true })));
}

/**
 * The references of bodies read before in this process, by a digest of the body: markdownReferences is a
 * pure function of the text, so a body imported again (the same archive once more, a Git Sync where a push
 * changed a few files) is not read again. Only bodies that were read without a refusal are kept, so a
 * refused body is read, and refused, every time. About 2,000,000 references in at most 100,000 bodies.
 */
const knownReferences = new LruCache<string, readonly string[]>(100_000, 2_000_000);

/**
 * Counts the bodies read with the Markdown reader and those answered from memory, for tests and measurements;
 * `readHere` counts the bodies markdownReferences read on this thread (on the main thread: not on a worker).
 */
export const referenceStats = { read: 0, remembered: 0, readHere: 0 };

/** Empties the memory of references, as a freshly started process has it. */
export function clearKnownReferences(): void {
  knownReferences.clear();
}

function digest(markdown: string): string {
  return createHash('sha256').update(markdown).digest('base64url');
}

/**
 * markdownReferences of many pages (a file set), in batches on the workers; the first refusal in page order
 * wins, as if they were read one by one (bodies answered from memory were read without a refusal before,
 * so the first refusal among the others is the first of all). `signal` is the import's deadline.
 */
export async function readReferences(pages: NamedBody[], signal?: AbortSignal, pooled = false): Promise<string[][]> {
  const keys = pages.map((page) => digest(page.markdown));
  const found: Array<readonly string[] | undefined> = keys.map((key) => knownReferences.get(key));
  const unread = pages.flatMap((_page, i) => (found[i] === undefined ? [i] : []));
  referenceStats.remembered += pages.length - unread.length;
  if (unread.length > 0) {
    const read = await runTaskInBatches(REFERENCES, unread.map((i) => pages[i]), {
      sizeOf: (page) => page.markdown.length,
      what: (batch) => (batch.length === 1 ? `the Markdown of "${batch[0].name}"` : `the Markdown of ${batch.length} pages from "${batch[0].name}" on`),
      signal,
      errors: ERRORS,
      pooled,
    });
    referenceStats.read += unread.length;
    unread.forEach((at, i) => {
      found[at] = read[i];
      knownReferences.set(keys[at], read[i], 1 + read[i].length);
    });
  }
  // Copies: the remembered lists stay as they were read whatever a caller does with its own.
  return found.map((references) => [...references!]);
}

/**
 * Reads the references of bodies as they come (the pages of an archive, as its files are unpacked and laid
 * out), a batch of about `batchSize` characters at a time on the workers, at most `threads` batches at once,
 * so that the pool reads while the calling thread unpacks. `all` then answers for the whole list in its order
 * exactly as readReferences of that list would, refusal included: bodies not read yet are read then, and
 * when any early batch failed the whole list is read again in order (the bodies read without a refusal are
 * remembered, so only the refused one is read again), so the refusal thrown is the first in page order.
 */
export class ReferenceReader {
  private pending: NamedBody[] = [];
  private pendingSize = 0;
  /** Full batches not started yet (at most `threads` run at once). */
  private queued: NamedBody[][] = [];
  private readonly running = new Set<Promise<void>>();
  private readonly read = new Map<string, readonly string[]>();
  private failed = false;

  constructor(
    private readonly batchSize: number,
    private readonly threads: number,
    private readonly signal?: AbortSignal,
  ) {}

  /** A body whose references will be asked for: read with the next full batch. */
  add(body: NamedBody): void {
    // A batch is sent before it would pass `batchSize`, never after: readReferences cuts what it is given
    // into batches of at most that size, so one body over it was sent as a task of its own (a body too
    // small for a worker, read cold on this thread, once a batch).
    if (this.pending.length > 0 && this.pendingSize + body.markdown.length > this.batchSize) this.flush();
    this.pending.push(body);
    this.pendingSize += body.markdown.length;
  }

  /** Queues what is pending as a batch, and starts it if a thread is free. */
  private flush(): void {
    this.queued.push(this.pending);
    this.pending = [];
    this.pendingSize = 0;
    this.pump();
  }

  private pump(): void {
    while (!this.failed && this.running.size < this.threads && this.queued.length > 0) {
      const bodies = this.queued.shift()!;
      const done: Promise<void> = readReferences(bodies, this.signal, true).then(
        (found) => bodies.forEach((body, i) => this.read.set(body.markdown, found[i])),
        () => {
          this.failed = true;
        },
      );
      this.running.add(done);
      void done.then(() => {
        this.running.delete(done);
        this.pump();
      });
    }
  }

  /**
   * Starts no more batches (the import was refused before its references were needed). The batches under
   * way finish (a batch is small): stopping them would end their threads, and the next import would start
   * cold ones.
   */
  stop(): void {
    this.queued = [];
    this.failed = true;
  }

  /** readReferences(bodies): the references of each body, in order; the first refusal in that order throws. */
  async all(bodies: NamedBody[]): Promise<string[][]> {
    // The last, partial batch goes the way of the others, and every batch is read as a thread frees up:
    // no thread waits for the other's last batch before the rest starts, and no small rest is read cold
    // on this thread (the workers were warmed for it).
    if (!this.failed && this.pending.length > 0) this.flush();
    while (this.running.size > 0) await Promise.all(this.running);
    this.queued = [];
    if (this.failed) return readReferences(bodies, this.signal);
    const rest = bodies.filter((body) => !this.read.has(body.markdown));
    const found = rest.length > 0 ? await readReferences(rest, this.signal, true) : [];
    let next = 0;
    return bodies.map((body) => {
      const early = this.read.get(body.markdown);
      return early ? [...early] : found[next++];
    });
  }
}
