/**
 * `npm run bench -- workers`: where the worker pool's inline threshold (INLINE_BELOW, src/workers/pool.ts)
 * comes from. For Markdown bodies of growing size, the time to read one on the calling thread (the parse
 * that would block the event loop) against the time of the same task sent to a warm pool (the request's
 * extra latency is that round trip less the parse, which no longer blocks). Medians of BENCH_WORKER_RUNS
 * runs (default 15), inline and pool alternating. Figures are printed, never asserted.
 */
import { markdownReferences } from '../src/imports/conversions.ts';
import { closeWorkerPool, runTask, workerTask } from '../src/workers/pool.ts';
import { median } from './lib.ts';

/** A body like a real page: headings, paragraphs with links and emphasis, a list, a code block. */
function body(characters: number): string {
  const section = (i: number) =>
    `## Section ${i}\n\nSome *text* that links to [another page](guide-${i}.md) and an ![image](assets/p${i}.png).\n\n- one\n- two with \`code\`\n\n\`\`\`js\nconst x = ${i};\n\`\`\`\n\n`;
  let text = '# Page\n\n';
  for (let i = 0; text.length < characters; i++) text += section(i);
  return text.slice(0, characters);
}

// Always sent to the pool (size above any threshold), so the round trip is measured at every size.
const REFERENCES = workerTask(new URL('../src/imports/conversions.ts', import.meta.url).href, 'markdownReferences', markdownReferences);

export async function workersBench(): Promise<void> {
  const runs = Number(process.env.BENCH_WORKER_RUNS ?? 15);
  await runTask(REFERENCES, [{ markdown: '# warm', name: 'warm' }], { size: Infinity, what: 'warm-up' });
  console.log('characters | inline parse (ms, median) | pool round trip (ms, median) | round trip − parse (ms)');
  for (const size of [0, 100, 250, 500, 1_000, 2_000, 5_000, 20_000]) {
    const text = body(size);
    const inline: number[] = [];
    const pooled: number[] = [];
    for (let i = 0; i < runs; i++) {
      let started = performance.now();
      markdownReferences([{ markdown: text, name: 'bench' }]);
      inline.push(performance.now() - started);
      started = performance.now();
      await runTask(REFERENCES, [{ markdown: text, name: 'bench' }], { size: Infinity, what: 'bench' });
      pooled.push(performance.now() - started);
    }
    const [a, b] = [median(inline), median(pooled)];
    console.log(`${size} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(b - a).toFixed(2)}`);
  }
  await closeWorkerPool();
}
