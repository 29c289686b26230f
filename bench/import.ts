/**
 * Import of a 1,000-page zip: POST /v1/spaces/{id}/content/import with the archive as a data: URL, into a
 * fresh space each run, from the request to the 201 (the pages are in a new revision). The baseline is
 * unpacking the same zip in the bench process with yauzl's own stream per entry (`openReadStream`, every entry
 * read in order): the unpacking this row has been measured against since it was written, which does not move
 * with the importer's code (openZip read entries this way until 30 November 2026, and now reads the archive in
 * memory, four times faster: a baseline that is the importer's own step would make the row worse for every
 * cut made to it). Both sides are measured on a settled server and warm:
 *
 * - Each run first waits until every job due has run (the index of the spaces imported before), then takes
 *   its baseline (the median of UNPACKS unpacks), then times the import: the unpacks no longer run beside the
 *   end of the last import's index job, which moved the baseline's median between 79 and 200 ms from one
 *   run to the next on a quiet machine (the unpacks were taken before the wait, right after the last index
 *   had answered its first search).
 * - Both sides are warmed before the timed runs: UNPACKS untimed unpacks in the bench process, and one
 *   untimed import (WARM_IMPORTS, its own edition of the zip) in the server, which loads the worker threads
 *   (decision 0142 keeps them unloaded until needed; that first import is printed apart). The row is the
 *   median of `runs` warm first imports against the median of their baselines.
 *
 * Medians are printed, and the serving process's CPU time per import (Linux); the note also gives each run's
 * import against the importer's own unpack step (src/imports/zip.ts openZip, the default import limits).
 * Each run imports an edition of the zip whose every page differs (a line naming the edition), so that each
 * is a first import: a process keeps the references of the bodies it has read (src/imports/conversions.ts),
 * and the same zip again is a re-import, printed apart (one run, after the others).
 */
import { readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
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
 * The reference unpack: yauzl's stream per entry (`openReadStream`, the size checked), every entry read in
 * order. It does not move with the importer's code (openZip read entries this way until 30 November 2026).
 */
async function streamUnpack(zip: Buffer): Promise<number> {
  const file = await new Promise<ZipFile>((resolve, reject) => yauzl.fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true }, (error, opened) => (error ? reject(error) : resolve(opened!))));
  let bytes = 0;
  await new Promise<void>((resolve, reject) => {
    file.on('entry', (entry: Entry) => {
      file.openReadStream(entry, (error, stream) => {
        if (error || !stream) return reject(error);
        stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
        stream.on('error', reject);
        stream.on('end', () => file.readEntry());
      });
    });
    file.on('end', resolve);
    file.on('error', reject);
    file.readEntry();
  });
  return bytes;
}

/**
 * Unpacks taken for each run's baseline: the median of several, after an untimed set, is the unpacking's
 * own time, not a moment's (one unpack moved by 1.5x between runs; the first in the process ran cold).
 */
const UNPACKS = 9;

/** Untimed imports before the timed ones: the first import of a server loads its worker threads. */
const WARM_IMPORTS = 1;

/** The median of UNPACKS runs of `unpacker` over `zip`, in ms, and the bytes it holds. */
async function unpackTime(zip: Buffer, unpacker: (zip: Buffer) => Promise<number> = unpack): Promise<{ ms: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < UNPACKS; i++) {
    const started = performance.now();
    bytes = await unpacker(zip);
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
 * `runs` imports into fresh spaces, each after every job due has run (`settled`) and then the median of
 * UNPACKS unpacks of the same zip: each import is measured as a user meets it, on a server that is not still
 * indexing the import before (a user imports one archive; a bench that starts the next while the last one's
 * 1,000 pages are being indexed measures the two at once), and so is its baseline. Prints the row and returns a note.
 */
export async function importZip(client: Api, organization: string, first: Buffer, runs: number, setting: ImportSetting = {}): Promise<string> {
  const imports: number[] = [];
  const unpacks: number[] = [];
  const streams: number[] = [];
  const cpu: number[] = [];
  let result: { importedResources: number; totalResources: number } | undefined;
  let unpacked = 0;
  let zip = first;
  /** Settles the server, takes the baseline of `zip`, then times its import into a fresh space. */
  const timedImport = async (title: string) => {
    const spaceId = await createSpace(client, organization, title);
    const body = { url: dataUrl('application/zip', zip), source: 'zip' };
    await setting.settled?.();
    const baseline = await unpackTime(zip);
    const stream = await unpackTime(zip, streamUnpack);
    const cpuBefore = cpuMs(setting.serverPid);
    const started = performance.now();
    const answer = await api(client, 'POST', `/v1/spaces/${spaceId}/content/import`, body);
    const took = performance.now() - started;
    const cpuAfter = cpuMs(setting.serverPid);
    if (cpuBefore !== undefined && cpuAfter !== undefined) cpu.push(cpuAfter - cpuBefore);
    await waitForIndex(client, spaceId);
    return { answer, took, baseline, stream: stream.ms };
  };
  // Untimed: the bench process's first unpacks run cold (0.8–1.5 s loaded against 0.15–0.75 s after), which
  // made the first run's baseline the slowest and its ratio the most flattering.
  await unpackTime(first);
  await unpackTime(first, streamUnpack);
  const warm: number[] = [];
  for (let i = 0; i < WARM_IMPORTS; i++) {
    zip = buildImportZip(1000 + i);
    warm.push((await timedImport(`warm-up import ${i + 1}`)).took);
  }
  for (let run = 0; run < runs; run++) {
    zip = run === 0 ? first : buildImportZip(run);
    const timed = await timedImport(`import ${run + 1}`);
    result = timed.answer;
    imports.push(timed.took);
    unpacks.push(timed.baseline.ms);
    streams.push(timed.stream);
    unpacked = timed.baseline.bytes;
  }
  // The last edition again, into a fresh space: its bodies were read by the run that imported it.
  const again = await timedImport('import again');
  // The row's baseline is the reference stream unpack (the unpacking every earlier figure of this row was
  // measured against); the importer's own unpack step, which now reads the archive in memory, is in the note.
  const [imported, baseline] = [median(imports), median(streams)];
  row('import zip, 1,000 pages (ms)', ms(imported), ms(baseline), imported / baseline, `<= 4.00x unpacking the same zip (runs: ${imports.map((t, i) => (t / streams[i]).toFixed(1)).join(', ')})`, imported / baseline <= 4);
  const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
  const cpuNote = cpu.length > 0 ? `; server CPU per import ${cpu.map((t) => Math.round(t)).join(', ')} ms (the first: the untimed warm-up; the last: the same zip again)` : '';
  const streamNote = `; the reference stream unpack (the row's baseline, median of ${UNPACKS} a run) ${streams.map((t) => Math.round(t)).join(', ')} ms; against the importer's own unpack step ${(imported / median(unpacks)).toFixed(2)}x (runs: ${imports.map((t, i) => (t / unpacks[i]).toFixed(1)).join(', ')})`;
  return `import: median of ${runs} first imports into fresh spaces, each after the jobs due had run and after ${WARM_IMPORTS} untimed warm-up import (${warm.map((t) => Math.round(t)).join(', ')} ms), zip of ${kb(zip.length)} (${kb(unpacked)} unpacked), ${result!.importedResources} of ${result!.totalResources} resources imported; the importer's own unpack step (median of ${UNPACKS} a run, taken after the jobs settled) ${unpacks.map((t) => Math.round(t)).join(', ')} ms; import ${imports.map((t) => Math.round(t)).join(', ')} ms${streamNote}; the same zip again ${ms(again.took)} ms (${(again.took / again.stream).toFixed(1)}x its reference unpack)${cpuNote}`;
}
