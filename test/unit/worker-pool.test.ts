import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { threadId } from 'node:worker_threads';
import { MarkdownLimitError } from '../../src/content/markdown/limits.ts';
import { BadRequest, Conflict } from '../../src/errors.ts';
import { loadReaders, readMarkdownPage, readReferences } from '../../src/imports/conversions.ts';
import { BATCH_SIZE, closeWorkerPool, configureWorkerPool, cutBatches, INLINE_BELOW, MIN_BATCH_SIZE, runTask, runTaskInBatches, startedThreads, workerTask } from '../../src/workers/pool.ts';
import { echoAll, fail, spin, whereAmI } from '../fixtures/workers/tasks.ts';

const TASKS = new URL('../fixtures/workers/tasks.ts', import.meta.url).href;
const WHERE = workerTask(TASKS, 'whereAmI', whereAmI);
const FAIL = workerTask(TASKS, 'fail', fail);
const SPIN = workerTask(TASKS, 'spin', spin);
const ECHO = workerTask(TASKS, 'echoAll', echoAll);
const big = (prefix: string) => prefix + 'x'.repeat(INLINE_BELOW);

describe('worker pool', () => {
  after(() => closeWorkerPool());

  it('runs a large input on a worker thread, and a small one on the calling thread', async () => {
    const far = await runTask(WHERE, big(''), { size: INLINE_BELOW, what: 'a test input' });
    assert.notEqual(far.threadId, threadId);
    assert.equal(far.length, INLINE_BELOW);
    const near = await runTask(WHERE, 'small', { size: 5, what: 'a test input' });
    assert.equal(near.threadId, threadId);
    const pooled = await runTask(WHERE, 'small', { size: 5, what: 'a test input', pooled: true });
    assert.notEqual(pooled.threadId, threadId, 'a pooled task goes to a worker whatever its size');
  });

  it('rebuilds the class, status and message of an error thrown in a worker', async () => {
    const cases: Array<[string, (error: unknown) => boolean]> = [
      ['limit', (error) => error instanceof MarkdownLimitError && error.status === 400 && error.message === 'Line 1 of the page nests too deep.'],
      ['conflict', (error) => error instanceof Conflict && error.status === 409 && error.message === 'Someone else moved it.'],
      ['range', (error) => error instanceof RangeError && error.message === 'Maximum call stack size exceeded'],
      ['plain', (error) => error instanceof Error && !(error instanceof BadRequest) && error.message === 'plain failure'],
    ];
    for (const [kind, check] of cases) {
      await assert.rejects(runTask(FAIL, big(kind), { size: INLINE_BELOW, what: 'a test input', errors: [MarkdownLimitError] }), check, kind);
    }
  });

  it('stops a task that runs too long with a 400 naming what it read, and keeps serving', async () => {
    await assert.rejects(runTask(SPIN, big('spin'), { size: INLINE_BELOW, what: 'the Markdown of "loop.md"', timeoutMs: 500 }), (error: unknown) => {
      return error instanceof BadRequest && /^Reading the Markdown of "loop\.md" took longer than 0\.5 seconds and was stopped/.test(error.message);
    });
    const after = await runTask(WHERE, big(''), { size: INLINE_BELOW, what: 'a test input' });
    assert.notEqual(after.threadId, threadId);
  });

  it("stops a task when the caller's signal fires, with the signal's reason", async () => {
    const controller = new AbortController();
    const running = runTask(SPIN, big('spin'), { size: INLINE_BELOW, what: 'a test input', signal: controller.signal });
    setTimeout(() => controller.abort(new Conflict('time is up')), 200);
    await assert.rejects(running, (error: unknown) => error instanceof Conflict && error.message === 'time is up');
  });

  it('runs many inputs in batches, answers in their order, and throws the first failure in their order', async () => {
    const many = Array.from({ length: 300 }, (_, i) => `${i}:`.padEnd(10, ' ') + 'y'.repeat(2_000 * (i % 3)));
    const echoed = await runTaskInBatches(ECHO, many, { sizeOf: (input) => input.length, what: () => 'inputs' });
    assert.deepEqual(echoed, many.map((input) => input.slice(0, 10)));
    // The first page fails on a worker (its batch is large), the second on this thread, sooner: the first wins.
    const pages = [
      { markdown: '_'.repeat(300) + ' ' + 'z'.repeat(260_000), name: 'first.md' },
      { markdown: '*'.repeat(200) + 'x', name: 'second.md' },
    ];
    await assert.rejects(readReferences(pages), (error: unknown) => error instanceof MarkdownLimitError && /run of 300 emphasis marks/.test(error.message));
    const references = await readReferences([{ markdown: '[a](a.md) ' + 'x'.repeat(3_000), name: 'large.md' }, { markdown: '![i](img.png) [b](b.md)', name: 'small.md' }]);
    // A reference may be offered to the hooks more than once; the set is what counts.
    assert.deepEqual(references.map((list) => [...new Set(list)]), [['a.md'], ['img.png', 'b.md']]);
  });

  it('cuts many small inputs into batches that even out over the threads, in order, never below the least worth a hop', () => {
    configureWorkerPool({ threads: 2 });
    // 1,000 pages of 450 characters: two batches (256 KB and the rest) before; now eight of about 56 KB.
    const pages = Array.from({ length: 1_000 }, (_, i) => String(i).padEnd(450, '.'));
    const batches = cutBatches(pages, (page) => page.length);
    assert.equal(batches.length, 8);
    assert.deepEqual(batches.flatMap((batch) => batch.items), pages);
    for (const batch of batches) assert.ok(batch.size <= Math.ceil(450_000 / 8) && batch.size === batch.items.length * 450);
    // Few inputs are not cut below MIN_BATCH_SIZE; large ones stay within BATCH_SIZE.
    assert.equal(cutBatches(Array.from({ length: 100 }, () => 'x'.repeat(450)), (page) => page.length).length, Math.ceil(45_000 / MIN_BATCH_SIZE));
    assert.ok(cutBatches(Array.from({ length: 100 }, () => 'x'.repeat(100_000)), (page) => page.length).every((batch) => batch.size <= BATCH_SIZE));
    // A last batch too small for a worker (it would be read on the calling thread) joins the one before it.
    const tailed = cutBatches([...Array.from({ length: 71 }, () => 'x'.repeat(450)), 'y'.repeat(300)], (page) => page.length);
    assert.equal(tailed.length, 1, 'the 300 characters past the first 32,000 are not a batch of their own');
    assert.ok(tailed.every((batch) => batch.size >= INLINE_BELOW));
    assert.equal(tailed.flatMap((batch) => batch.items).length, 72);
  });

  it('starts every thread of a kept pool (quire serve) and loads the Markdown reader in each', async () => {
    configureWorkerPool({ threads: 2, keep: true });
    try {
      await loadReaders(2);
      assert.equal(startedThreads(), 2, 'both threads are started, each loaded by one warming task');
      const [a, b] = await Promise.all([0, 1].map(() => runTask(WHERE, 'small', { size: 5, what: 'a test input', pooled: true })));
      assert.ok(a.threadId !== threadId && b.threadId !== threadId, 'both ran on workers');
    } finally {
      configureWorkerPool({ threads: 2 });
    }
  });

  it('gives a Markdown import the same answer on a worker as on the calling thread', async () => {
    const options = { key: 'markdown:page', fallbackTitle: 'Imported page', name: 'page.md' };
    const filler = '\n' + 'words '.repeat(400);
    for (const body of ['---\n- a list\n---\n', '*'.repeat(150) + ' x\n', '# Title\n\ntext\n']) {
      const answer = (page: Promise<{ markdown?: string }>, cut: number) =>
        page.then(
          (read) => ({ page: { ...read, markdown: read.markdown?.slice(0, read.markdown.length - cut) } }),
          (error: Error) => ({ error: [error.constructor.name, error.message] }),
        );
      const small = await answer(readMarkdownPage(body, options, 'x'), 0);
      const large = await answer(readMarkdownPage(body + filler, options, 'x'), filler.length);
      assert.deepEqual(large, small, body.slice(0, 20));
    }
  });
});
