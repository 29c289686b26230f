import { lstat, readdir, readFile } from 'node:fs/promises';
import { basename, extname, join, relative, resolve, sep } from 'node:path';
import cliProgress from 'cli-progress';
import type { Context } from '../context.ts';
import { BadRequest } from '../errors.ts';
import { importFileSet } from '../imports/fileset.ts';
import { loadImport, type ImportSource } from '../imports/index.ts';
import { Deadline, DEFAULT_LIMITS, megabytes, type ImportLimits } from '../imports/limits.ts';
import { AssetCollector, contentTypeOf, type ImportedContent } from '../imports/types.ts';
import type { FileSet } from '../imports/zip.ts';
import { importIntoSpaceAsOperator } from '../modules/imports/service.ts';

/**
 * `quire import <file-or-folder> --space <id>`: pushes local docs into a space as the operator (no user,
 * like `quire init`), as one new revision; a locked space is refused. A folder goes through the same
 * layout as a zip archive (SUMMARY.md, .gitbook.yaml, folders and README.md files); a single file is
 * imported by its extension (.zip, .md, .html, .docx). Folders of more than 50 files show a progress bar on
 * stderr (when it is a terminal).
 */

/** The same limits as the API, but the operator's own disk is not on a clock of one minute. */
const CLI_LIMITS: ImportLimits = { ...DEFAULT_LIMITS, timeoutMs: 30 * 60_000 };

const SOURCES_BY_EXTENSION: Record<string, ImportSource> = { '.zip': 'zip', '.md': 'markdown', '.markdown': 'markdown', '.html': 'html', '.htm': 'html', '.docx': 'docx' };

const SKIPPED_FOLDERS = new Set(['.git', 'node_modules']);

/**
 * A folder on disk as a FileSet: regular files only (symbolic links are not followed), at most
 * `maxEntries` of them. Their total size is not limited here: the import counts only what it takes (the
 * pages and the files they use, src/imports/fileset.ts).
 */
export async function folderFileSet(root: string, limits: ImportLimits = CLI_LIMITS): Promise<FileSet> {
  const files: Array<{ path: string; size: number }> = [];
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) await walk(path);
        continue;
      }
      if (!entry.isFile()) continue;
      const { size } = await lstat(path);
      files.push({ path: relative(root, path).split(sep).join('/'), size });
      if (files.length > limits.maxEntries) throw new BadRequest(`The folder holds more than ${limits.maxEntries} files, the most one import takes; import its parts one by one.`);
    }
  };
  await walk(root);
  return { files, read: (path) => readFile(join(root, ...path.split('/'))) };
}

export interface ImportCommand {
  path: string;
  spaceId: string;
  json: boolean;
}

/** Runs the command; returns the exit code. Refusals throw (the CLI prints them and exits with 1). */
export async function importCommand(ctx: Context, command: ImportCommand): Promise<number> {
  const path = resolve(command.path);
  const stats = await lstat(path).catch(() => null);
  if (!stats || (!stats.isFile() && !stats.isDirectory())) throw new BadRequest(`There is no file or folder at ${command.path}.`);

  let leftOut: ImportedContent['leftOut'];
  const load = async () => {
    if (stats.isFile()) {
      const source = SOURCES_BY_EXTENSION[extname(path).toLowerCase()];
      if (!source) throw new BadRequest(`${basename(path)} is not a file quire import reads: give a folder, or a .zip, .md, .html or .docx file.`);
      if (stats.size > CLI_LIMITS.maxDownloadBytes) throw new BadRequest(`${basename(path)} is larger than ${megabytes(CLI_LIMITS.maxDownloadBytes)}, the most one import reads.`);
      const bytes = await readFile(path);
      const url = `data:${contentTypeOf(path, 'text/plain')};name=${encodeURIComponent(basename(path))};base64,${bytes.toString('base64')}`;
      return loadImport(ctx, { url, source }, { limits: CLI_LIMITS });
    }
    const set = await folderFileSet(path);
    const bar = set.files.length > 50 ? new cliProgress.SingleBar({ stream: process.stderr, format: 'Importing [{bar}] {value}/{total} files', hideCursor: true }, cliProgress.Presets.shades_classic) : null;
    bar?.start(set.files.length, 0);
    const deadline = new Deadline(CLI_LIMITS.timeoutMs);
    try {
      const env = { limits: CLI_LIMITS, signal: deadline.signal, allowPrivate: ctx.config.importAllowPrivate };
      const content = await importFileSet(set, { assets: new AssetCollector(ctx.blobs), env, onProgress: (done) => bar?.update(done) });
      leftOut = content.leftOut;
      return content;
    } finally {
      deadline.dispose();
      bar?.stop();
    }
  };

  const result = await importIntoSpaceAsOperator(ctx, command.spaceId, load);
  const left = leftOut && leftOut.files.length > 0 ? { count: leftOut.files.length, bytes: leftOut.bytes, files: leftOut.files.slice(0, 100) } : undefined;
  const printed = { space: command.spaceId, revision: result.revisionId, importedResources: result.importedResources, totalResources: result.totalResources, ...(left ? { leftOut: left } : {}) };
  process.stdout.write(
    command.json
      ? JSON.stringify(printed) + '\n'
      : `Imported ${result.importedResources} of ${result.totalResources} resources into space ${command.spaceId}: new revision ${result.revisionId}.\n${left ? leftOutText(left) : ''}`,
  );
  return 0;
}

/** What a folder import left out, for a person: how many files, their size, and the first few names. */
export function leftOutText(left: { count: number; bytes: number; files: string[] }): string {
  const shown = left.files.slice(0, 10);
  const more = left.count - shown.length;
  return `Left out ${left.count} file${left.count === 1 ? '' : 's'} (${megabytes(left.bytes)}) that no imported page uses or the summary does not list: ${shown.join(', ')}${more > 0 ? `, and ${more} more` : ''}.\n`;
}
