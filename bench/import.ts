/**
 * Import of a 1,000-page zip: POST /v1/spaces/{id}/content/import with the archive as a data: URL, into a
 * fresh space each run, from the request to the 201 (the pages are in a new revision), once the jobs the
 * runs before left due (their search index) have run. The baseline is unpacking the same zip in the bench
 * process with the importer's own step (src/imports/zip.ts openZip, the default import limits) and reading
 * every entry, the median of 5 unpacks before each run (after 5 untimed ones). Runs alternate between the two; medians are printed,
 * and the serving process's CPU time per import (Linux).
 * Each run imports an edition of the zip whose every page differs (a line naming the edition), so that each
 * is a first import: a process keeps the references of the bodies it has read (src/imports/conversions.ts),
 * and the same zip again is a re-import, printed apart (one run, after the others).
 */
import { readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { DEFAULT_LIMITS } from '../src/imports/limits.ts';
import { openZip } from '../src/imports/zip.ts';
import { buildZip, dataUrl, type ZipEntry } from '../test/imports/helpers.ts';
import { api, createSpace, median, ms, row, type Api } from './lib.ts';
import { pageMarkdown } from './seed.ts';

const FOLDERS = 20;
const PAGES_PER_FOLDER = 50;
const IMAGES = 5;

/** A real grey-noise PNG of `size`×`size` pixels (noise does not compress: about size² bytes). */
function png(size: number, seed: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // 8 bits, greyscale (colour type 0), deflate, no filter, no interlace
  const pixels = Buffer.alloc(size * (size + 1));
  let x = seed + 1;
  for (let i = 0; i < pixels.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    pixels[i] = i % (size + 1) === 0 ? 0 : x >>> 24; // each row starts with its filter byte (0)
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

const folderName = (f: number) => `part-${String(f + 1).padStart(2, '0')}`;
const pageName = (n: number) => `page-${String(n + 1).padStart(4, '0')}.md`;

/**
 * A documentation folder, zipped as `docs/…`: README.md, SUMMARY.md (a group per folder), 20 folders of
 * 50 Markdown pages (about a kilobyte each, linking to the next page; every 200th shows a diagram) and 5
 * PNG diagrams in images/. 1,000 pages, 1,007 files.
 */
export function buildImportZip(edition = 0): Buffer {
  const entries: ZipEntry[] = [{ name: 'docs/README.md', data: '# Product documentation\n\nStart with [the first page](part-01/page-0001.md).\n' }];
  const summary = ['# Table of contents', '', '* [Product documentation](README.md)'];
  for (let f = 0; f < FOLDERS; f++) {
    summary.push('', `## Part ${f + 1}`, '');
    for (let p = 0; p < PAGES_PER_FOLDER; p++) {
      const n = f * PAGES_PER_FOLDER + p;
      const next = p + 1 < PAGES_PER_FOLDER ? `\n\nNext: [Topic ${n + 1}](${pageName(n + 1)}).` : '';
      const image = n % 200 === 0 ? `\n\n![Diagram of topic ${n}](../images/diagram-${n / 200 + 1}.png)` : '';
      const named = edition > 0 ? `\n\nEdition ${edition}.` : '';
      entries.push({ name: `docs/${folderName(f)}/${pageName(n)}`, data: `${pageMarkdown(n)}${image}${next}${named}\n` });
      summary.push(`* [Topic ${n}](${folderName(f)}/${pageName(n)})`);
    }
  }
  entries.push({ name: 'docs/SUMMARY.md', data: `${summary.join('\n')}\n` });
  for (let i = 0; i < IMAGES; i++) entries.push({ name: `docs/images/diagram-${i + 1}.png`, data: png(96 + 32 * i, i), method: 'store' });
  return buildZip(entries);
}

/** The body limit the server needs for this zip as a data: URL in a JSON body (never below the 10 MB default). */
export function bodyLimitFor(zip: Buffer): number {
  return Math.max(10 * 1024 * 1024, Math.ceil((zip.length * 4) / 3) + 64 * 1024);
}

/** The baseline: the importer's unpack step over the whole archive. */
async function unpack(zip: Buffer): Promise<number> {
  const files = await openZip(zip, DEFAULT_LIMITS);
  let bytes = 0;
  for (const file of files.files) bytes += (await files.read(file.path)).length;
  return bytes;
}

/**
 * Unpacks taken for each run's baseline: one unpack moved by 1.5x between runs on a quiet machine (293–458 ms),
 * and the first in the process ran cold; the median of several, after an untimed set, is the unpacking's own
 * time, not a moment's.
 */
const UNPACKS = 5;

/** The median of UNPACKS unpacks of `zip`, in ms, and the bytes it holds. */
async function unpackTime(zip: Buffer): Promise<{ ms: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < UNPACKS; i++) {
    const started = performance.now();
    bytes = await unpack(zip);
    times.push(performance.now() - started);
  }
  return { ms: median(times), bytes };
}

/** The CPU time (user + system, every thread) the kernel charged process `pid`, in ms; undefined off Linux. */
function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined;
  // Fields 14 and 15 of /proc/PID/stat, in clock ticks (100 a second); the name in parentheses may hold spaces.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** How each import is set apart from what came before it (bench/run.ts gives them). */
export interface ImportSetting {
  /** Waits until the jobs due (the index of the spaces imported before) have run, untimed. */
  settled?: () => Promise<unknown>;
  /** The serving process, whose CPU time per import is printed (Linux). */
  serverPid?: number;
}

/** Waits (untimed) until the space's `index-space` job has run, so that it does not weigh on the next run. */
async function waitForIndex(client: Api, spaceId: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while ((await api(client, 'GET', `/v1/spaces/${spaceId}/search?query=troubleshooting&limit=1`)).count === 0) {
    if (Date.now() > deadline) throw new Error(`The imported space ${spaceId} was not indexed within 2 minutes.`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * `runs` imports into fresh spaces, each after the median of UNPACKS unpacks of the same zip and after every
 * job due has run (`settled`): each import is measured as a user meets it, on a server that is not still
 * indexing the import before (a user imports one archive; a bench that starts the next while the last one's
 * 1,000 pages are being indexed measures the two at once). Prints the row and returns a note.
 */
export async function importZip(client: Api, organization: string, first: Buffer, runs: number, setting: ImportSetting = {}): Promise<string> {
  const imports: number[] = [];
  const unpacks: number[] = [];
  const cpu: number[] = [];
  let result: { importedResources: number; totalResources: number } | undefined;
  let unpacked = 0;
  let zip = first;
  const timedImport = async (spaceId: string, body: object) => {
    await setting.settled?.();
    const cpuBefore = cpuMs(setting.serverPid);
    const started = performance.now();
    const answer = await api(client, 'POST', `/v1/spaces/${spaceId}/content/import`, body);
    const took = performance.now() - started;
    const cpuAfter = cpuMs(setting.serverPid);
    if (cpuBefore !== undefined && cpuAfter !== undefined) cpu.push(cpuAfter - cpuBefore);
    return { answer, took };
  };
  // Untimed: the bench process's first unpacks run cold (0.8–1.5 s loaded against 0.15–0.75 s after), which
  // made the first run's baseline the slowest and its ratio the most flattering.
  await unpackTime(first);
  for (let run = 0; run < runs; run++) {
    zip = run === 0 ? first : buildImportZip(run);
    const body = { url: dataUrl('application/zip', zip), source: 'zip' };
    const baseline = await unpackTime(zip);
    unpacked = baseline.bytes;
    unpacks.push(baseline.ms);
    const spaceId = await createSpace(client, organization, `import ${run + 1}`);
    const { answer, took } = await timedImport(spaceId, body);
    result = answer;
    imports.push(took);
    await waitForIndex(client, spaceId);
  }
  // The last edition again, into a fresh space: its bodies were read by the run that imported it.
  const spaceId = await createSpace(client, organization, 'import again');
  const { took: again } = await timedImport(spaceId, { url: dataUrl('application/zip', zip), source: 'zip' });
  await waitForIndex(client, spaceId);
  const againBaseline = (await unpackTime(zip)).ms;
  const [imported, baseline] = [median(imports), median(unpacks)];
  row('import zip, 1,000 pages (ms)', ms(imported), ms(baseline), imported / baseline, `<= 4.00x unpacking the same zip (runs: ${imports.map((t, i) => (t / unpacks[i]).toFixed(1)).join(', ')})`, imported / baseline <= 4);
  const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
  const cpuNote = cpu.length > 0 ? `; server CPU per import ${cpu.map((t) => Math.round(t)).join(', ')} ms (the last: the same zip again)` : '';
  return `import: median of ${runs} first imports into fresh spaces, each after the jobs due had run, zip of ${kb(zip.length)} (${kb(unpacked)} unpacked), ${result!.importedResources} of ${result!.totalResources} resources imported; unpacking (median of ${UNPACKS} a run) ${unpacks.map((t) => Math.round(t)).join(', ')} ms; import ${imports.map((t) => Math.round(t)).join(', ')} ms; the same zip again ${ms(again)} ms (${(again / againBaseline).toFixed(1)}x its unpacking)${cpuNote}`;
}
