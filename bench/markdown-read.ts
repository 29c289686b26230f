/**
 * The Markdown read of a zip import, in one process: the 1,000 pages of the import bench's zip
 * (bench/import.ts, edition 1), unpacked with the importer's own step, each made a page (markdownPage) and
 * read for its references (markdownReferences) as a worker reads it during the import. Prints the CPU
 * (user + system of this process, not wall) of each round over the 1,000 pages, after warm-up rounds, and
 * the median; with `--profile`, run under `node --cpu-prof` to see where it goes.
 *
 *   node --import tsx bench/markdown-read.ts [rounds=10] [warm=3] [--full]
 *
 * `--full`: every syntax construct tried on every page (src/content/markdown/processors.ts, setSyntaxPruning),
 * as before the pruning.
 */
import { cpuUsage } from 'node:process';
import { DEFAULT_LIMITS } from '../src/imports/limits.ts';
import { openZip } from '../src/imports/zip.ts';
import { markdownPage } from '../src/imports/markdown.ts';
import { markdownReferences } from '../src/imports/conversions.ts';
import { setSyntaxPruning, syntaxStats } from '../src/content/markdown/processors.ts';
import { buildImportZip } from './import.ts';

const full = process.argv.includes('--full');
const [rounds, warm] = [Number(process.argv[2] ?? 10), Number(process.argv[3] ?? 3)].map((n) => (Number.isNaN(n) ? 10 : n));
if (full) setSyntaxPruning(false);

const files = await openZip(buildImportZip(1), DEFAULT_LIMITS);
const texts: Array<{ path: string; text: string }> = [];
for (const file of files.files) {
  if (!file.path.endsWith('.md') || file.path.endsWith('SUMMARY.md')) continue;
  texts.push({ path: file.path, text: (await files.read(file.path)).toString('utf8') });
}

function cpuMs(): number {
  const { user, system } = cpuUsage();
  return (user + system) / 1000;
}

function round(): number {
  const started = cpuMs();
  const bodies = texts.map(({ path, text }) => ({ markdown: markdownPage(text, { key: path, fallbackTitle: path }).markdown ?? '', name: path }));
  const references = markdownReferences(bodies);
  if (references.length !== bodies.length) throw new Error('lost a page');
  return cpuMs() - started;
}

for (let i = 0; i < warm; i++) round();
const times: number[] = [];
for (let i = 0; i < rounds; i++) times.push(round());
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(`${full ? 'full' : 'pruned'}: ${texts.length} pages (reads ${syntaxStats.reads}, ${syntaxStats.pruned} pruned); CPU ms per round: ${times.map((t) => t.toFixed(0)).join(' ')}; median ${median.toFixed(0)} ms (${(median / texts.length).toFixed(3)} ms a page); loadavg ${(await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').trim()}`);
