import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { defaultWorkerThreads } from '../config.ts';
import { workerBundleState } from './bundle.ts';
import { BadRequest, Conflict, Forbidden, Gone, NotFound, PayloadTooLarge, QuireError, Unauthorized } from '../errors.ts';

/**
 * The worker pool: CPU-heavy pure conversions (Markdown read into a page, the references of a page) run on
 * worker threads, so that a large or hostile body keeps the event loop, and with it `/readyz` and every
 * other request, answering. One pool per process, of QUIRE_WORKERS threads, started on first use (a thread
 * is started when a task needs one and stops after a minute idle; with QUIRE_WORKERS_WARM, `quire serve`
 * starts every thread at once, loads the Markdown reader in each and keeps them: decisions/0142); `quire
 * serve` closes it on shutdown.
 * A thread loads its modules from the worker bundle when it is current, else from the TypeScript sources
 * (src/workers/bundle.ts, decisions/0143).
 * Why piscina, and what runs where: docs/decisions/0063-worker-pool.md.
 *
 * A task is a pure function of a module (`workerTask`): the worker imports the module and calls it; its
 * input and output cross threads by structured clone (plain data: no functions, no class instances). An
 * input smaller than INLINE_BELOW runs on the calling thread instead: under it, the hop costs more than the
 * work (docs/performance.md). Many inputs at once (the pages of an archive, the bodies a search index
 * reads) go in batches, so that many small pages cost few hops and large ones use every thread. An error a task throws reaches the caller as the same class with
 * the same message, so the HTTP answer does not depend on the thread the work ran on.
 */

/**
 * Inputs smaller than this (characters or bytes) run on the calling thread: measured with
 * `npm run bench -- workers`, reading Markdown of about 1,000 to 2,000 characters costs as much as the
 * round trip to a worker; above, the parse blocks the event loop longer than the hop delays the request.
 */
export const INLINE_BELOW = 2_000;

/** Many small inputs (runTaskInBatches) are sent in batches of about this size, one task each. */
export const BATCH_SIZE = 256_000;

/**
 * Many small inputs go at most this many to a batch: a batch crosses threads by structured clone, on the
 * calling thread, both ways, and 50,000 tiny pages in one batch held the event loop while they were copied.
 */
export const BATCH_ITEMS = 2_000;

/**
 * Inputs are cut into at least this many batches per thread when they are not too small to be worth it
 * (MIN_BATCH_SIZE): with one batch a thread, the last thread to finish holds the others idle (1,000 pages of
 * half a kilobyte made one batch of 256 KB and one of 200 KB on two threads); several smaller ones even out.
 */
export const BATCHES_PER_THREAD = 4;

/** Batches are not cut below this size to spread them over the threads: below it, the hop costs more than the evening out. */
export const MIN_BATCH_SIZE = 32_000;

/** Longest one task may run on a worker before it is stopped (the thread is ended) and refused with a 400. */
export const TASK_TIMEOUT_MS = 30_000;

/** A pure function that may run on a worker thread: the module that exports it, its export name, and itself. */
export interface WorkerTask<I, O> {
  module: string;
  name: string;
  run: (input: I) => O;
}

/**
 * Declares `run`, exported as `name` by the module at `moduleUrl` (pass `import.meta.url`), as a task. The
 * module must be importable on its own in a worker: it holds pure functions and what they need, no state.
 */
export function workerTask<I, O>(moduleUrl: string, name: string, run: (input: I) => O): WorkerTask<I, O> {
  return { module: moduleUrl, name, run };
}

/** An error class a task may throw, rebuilt by its name on the calling thread. */
export type TaskErrorClass = new (message: string) => Error;

export interface RunTaskOptions {
  /** The size of the input (characters or bytes): below INLINE_BELOW the task runs on the calling thread. */
  size: number;
  /** What the task reads, for the refusal when it runs out of time: `the Markdown of "guide.md"`. */
  what: string;
  /** The caller's own deadline: when it fires, the task is stopped and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Error classes beyond those of src/errors.ts that the task may throw (rebuilt by name). */
  errors?: TaskErrorClass[];
  /** Longest the task may run on a worker; TASK_TIMEOUT_MS unless given. */
  timeoutMs?: number;
  /**
   * Runs on a worker whatever the size: for a caller that warmed the pool with this task. INLINE_BELOW
   * weighs the hop against a read on a calling thread that reads often; a thread that seldom reads runs
   * the reader's code cold (interpreted, compiled lazily), and a warm worker reads a small input far sooner.
   */
  pooled?: boolean;
}

type TaskAnswer<O> = { ok: true; value: O } | { ok: false; error: { name: string; message: string; status?: number } };

const KERNEL_ERRORS: TaskErrorClass[] = [BadRequest, Unauthorized, Forbidden, NotFound, Conflict, Gone, PayloadTooLarge];
const STANDARD_ERRORS: Record<string, new (message: string) => Error> = { Error, RangeError, TypeError, SyntaxError, ReferenceError, URIError, EvalError };

let threads = defaultWorkerThreads();
let pool: Piscina | undefined;
/** Tasks handed to piscina: at most `threads`, so a task's time limit counts from when a thread takes it. */
let running = 0;
const waiting: Array<() => void> = [];

/** Whether the threads are started with the pool and kept when idle (`quire serve`). */
let keep = false;

/**
 * Sets the number of threads (QUIRE_WORKERS) and whether they are kept: `keep` starts every thread with the
 * pool and never stops one for being idle, so the modules a thread loaded stay loaded (`quire serve` with
 * QUIRE_WORKERS_WARM; otherwise threads start on first use and go after a minute idle). A pool already
 * started otherwise is replaced.
 */
export function configureWorkerPool(options: { threads: number; keep?: boolean }): void {
  const keepThreads = options.keep ?? false;
  if (options.threads === threads && keepThreads === keep) return;
  threads = options.threads;
  keep = keepThreads;
  const previous = pool;
  pool = undefined;
  void previous?.close();
}

/** Stops the pool once its running tasks are done; a later task starts a new one. */
export async function closeWorkerPool(): Promise<void> {
  const previous = pool;
  pool = undefined;
  await previous?.close();
}

/** How the last pool started loads its modules: from the worker bundle, or the TypeScript sources and why (for tests and logs). */
export let workerModules: 'bundle' | 'missing' | 'stale' = 'missing';

function thePool(): Piscina {
  if (pool) return pool;
  // The bundle is checked against its sources each time a pool starts: a source changed since it was built
  // sends the threads to the TypeScript sources (src/workers/bundle.ts).
  const bundle = workerBundleState();
  workerModules = bundle.usable ? 'bundle' : bundle.reason;
  pool = new Piscina({
    filename: fileURLToPath(new URL('./worker.mjs', import.meta.url)),
    workerData: { bundle: bundle.usable ? bundle.modules : {} },
    minThreads: keep ? threads : 0,
    maxThreads: threads,
    idleTimeout: 60_000,
  });
  return pool;
}

/** The threads the pool has started and not stopped (for tests and measurements). */
export function startedThreads(): number {
  return pool?.threads.length ?? 0;
}

async function slot(): Promise<() => void> {
  if (running >= threads) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

/** The error a task threw in a worker, as the class the caller knows. */
function rebuild(error: { name: string; message: string; status?: number }, classes: TaskErrorClass[]): Error {
  const known = classes.find((candidate) => candidate.name === error.name);
  if (known) return new known(error.message);
  if (error.status !== undefined) {
    const rebuilt = new QuireError(error.status, error.message);
    rebuilt.name = error.name;
    return rebuilt;
  }
  const rebuilt = new (STANDARD_ERRORS[error.name] ?? Error)(error.message);
  rebuilt.name = error.name;
  return rebuilt;
}

/**
 * Runs a task: on the calling thread when its input is small, else on a worker, within TASK_TIMEOUT_MS
 * (a runaway task is stopped and refused with a 400 that names `what`) and within the caller's signal.
 */
export async function runTask<I, O>(task: WorkerTask<I, O>, input: I, options: RunTaskOptions): Promise<O> {
  options.signal?.throwIfAborted();
  if (options.size < INLINE_BELOW && !options.pooled) return task.run(input);
  const release = await slot();
  const timeoutMs = options.timeoutMs ?? TASK_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    options.signal?.throwIfAborted();
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    let answer: TaskAnswer<O>;
    try {
      answer = await thePool().run({ module: task.module, name: task.name, input }, { signal });
    } catch (error) {
      options.signal?.throwIfAborted();
      if (timeout.aborted) {
        throw new BadRequest(`Reading ${options.what} took longer than ${timeoutMs / 1000} seconds and was stopped; nothing was changed. Simplify it or split it into smaller parts.`);
      }
      throw error;
    }
    if (!answer.ok) throw rebuild(answer.error, [...KERNEL_ERRORS, ...(options.errors ?? [])]);
    return answer.value;
  } finally {
    release();
  }
}

/**
 * Cuts inputs, in order, into the batches runTaskInBatches sends: at most BATCH_SIZE and BATCH_ITEMS each,
 * and no larger than an even share of BATCHES_PER_THREAD a thread (never below MIN_BATCH_SIZE), but for a last
 * batch under INLINE_BELOW, which joins the one before it.
 */
export function cutBatches<I>(items: I[], sizeOf: (item: I) => number): Array<{ items: I[]; size: number }> {
  const sizes = items.map(sizeOf);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const target = Math.min(BATCH_SIZE, Math.max(MIN_BATCH_SIZE, Math.ceil(total / (threads * BATCHES_PER_THREAD))));
  const batches: Array<{ items: I[]; size: number }> = [];
  for (const [i, item] of items.entries()) {
    const size = sizes[i];
    const last = batches[batches.length - 1];
    if (last && last.size + size <= target && last.items.length < BATCH_ITEMS) {
      last.items.push(item);
      last.size += size;
    } else batches.push({ items: [item], size });
  }
  // A last batch too small for a worker would be read on the calling thread (runTask): it joins the batch
  // before it, which runs a little over the target rather than holding the event loop with a cold parse.
  const tail = batches[batches.length - 1];
  const before = batches[batches.length - 2];
  if (tail && before && tail.size < INLINE_BELOW && before.items.length + tail.items.length <= BATCH_ITEMS && before.size + tail.size <= BATCH_SIZE) {
    before.items.push(...tail.items);
    before.size += tail.size;
    batches.pop();
  }
  return batches;
}

export interface BatchOptions<I> extends Omit<RunTaskOptions, 'size' | 'what'> {
  /** The size of one input (characters or bytes). */
  sizeOf: (item: I) => number;
  /** What a batch reads, for the refusal when it runs out of time. */
  what: (batch: I[]) => string;
}

/**
 * Runs a task that maps an array of inputs to an array of outputs over many inputs: in batches of about
 * BATCH_SIZE (and at most BATCH_ITEMS inputs; smaller, down to MIN_BATCH_SIZE, so that there are
 * BATCHES_PER_THREAD a thread), each run as runTask runs one (so a small batch stays on the calling thread), as many at once
 * as the pool has threads. The outputs are in the order of the inputs. When a batch fails, no later batch
 * is started, and the error of the first failing batch is thrown, as if the inputs had been read one after
 * the other (so an archive of 500 pages that are all too long costs one refusal, not 500 hops).
 */
export async function runTaskInBatches<I, O>(task: WorkerTask<I[], O[]>, items: I[], options: BatchOptions<I>): Promise<O[]> {
  const batches = cutBatches(items, options.sizeOf);
  const outputs: O[][] = [];
  const errors: unknown[] = [];
  let failedAt = Infinity;
  let next = 0;
  const consume = async () => {
    while (next < batches.length && next < failedAt) {
      const index = next++;
      const batch = batches[index];
      try {
        outputs[index] = await runTask(task, batch.items, { ...options, size: batch.size, what: options.what(batch.items) });
      } catch (error) {
        errors[index] = error;
        failedAt = Math.min(failedAt, index);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(threads, batches.length) }, consume));
  if (failedAt !== Infinity) throw errors[failedAt];
  return outputs.flat();
}

/**
 * Lets the event loop answer what is waiting (timers, sockets) before a long loop on the calling thread
 * goes on: awaiting a promise alone only runs microtasks, so a loop of awaits over tens of thousands of
 * items holds the loop as surely as a synchronous one. Call it every few hundred items.
 */
export function pauseForEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
