import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { BadRequest } from '../errors.ts';
import { git, gitText, GitCommandError } from './cli.ts';

/**
 * The cached clone of a remote: a bare repository under `<data dir>/git/`, one per `repoCacheID` (else per
 * space), fetched shallowly (depth 1: the tip of the synced branch is all an import reads and all an
 * export builds on) and reused by every later operation.
 */

export interface TreeEntry {
  mode: string;
  oid: string;
  size: number;
  /** Path from the top of the repository. */
  path: string;
}

/** The folder of the cached clone for a cache key. */
export function cacheFolder(dataDir: string, cacheKey: string): string {
  return join(dataDir, 'git', createHash('sha256').update(cacheKey).digest('hex').slice(0, 32));
}

/** Makes the cached clone if it is not there yet; answers its folder. */
export async function openCache(dataDir: string, cacheKey: string): Promise<string> {
  const folder = cacheFolder(dataDir, cacheKey);
  if (!existsSync(join(folder, 'HEAD'))) {
    await mkdir(folder, { recursive: true });
    await git(['init', '--quiet', '--bare', '--', folder]);
  }
  return folder;
}

export interface FetchResult {
  /** The commit at the tip of the ref; null when the remote has no such branch (an empty repository). */
  commit: string | null;
}

/** A remote's refusal as a message a person can act on (git's own words otherwise). */
export function remoteError(error: unknown, url: string): unknown {
  if (!(error instanceof GitCommandError)) return error;
  const text = error.stderr;
  if (/Authentication failed|returned error: 40[13]|could not read Username/i.test(text)) {
    return new BadRequest(`The Git remote ${url} refused the credentials (or asked for some): check the user name and token in the repository URL.`);
  }
  if (/returned error: 404|not found|does not appear to be a git repository/i.test(text)) return new BadRequest(`There is no Git repository at ${url}; check the URL.`);
  if (/Could not resolve host|Failed to connect|Connection refused|timed out/i.test(text)) return new BadRequest(`The Git remote ${url} could not be reached: ${text.trim().split('\n').pop()}`);
  if (/\[rejected\]|non-fast-forward|fetch first/i.test(text)) return new BadRequest(`The branch moved on the remote while Quire was exporting; nothing was pushed. Run the export again.`);
  return error;
}

/** Fetches the tip of `ref` from the remote into `refs/quire/remote`. */
export async function fetchRef(gitDir: string, url: string, ref: string, config: Array<[string, string]>, signal?: AbortSignal): Promise<FetchResult> {
  try {
    await git(['fetch', '--quiet', '--no-tags', '--depth=1', '--', url, `+${ref}:refs/quire/remote`], { gitDir, config, signal });
  } catch (error) {
    if (error instanceof GitCommandError && /couldn't find remote ref/i.test(error.stderr)) {
      await git(['update-ref', '-d', 'refs/quire/remote'], { gitDir }).catch(() => undefined);
      return { commit: null };
    }
    throw remoteError(error, url);
  }
  return { commit: await gitText(['rev-parse', '--verify', '--quiet', 'refs/quire/remote^{commit}'], { gitDir }) };
}

/** Every file of a commit (blobs, with their size; links and submodules left out). */
export async function listTree(gitDir: string, commit: string): Promise<TreeEntry[]> {
  const out = await git(['ls-tree', '-r', '-l', '-z', '--full-tree', commit], { gitDir });
  const entries: TreeEntry[] = [];
  for (const record of out.toString('utf8').split('\0')) {
    if (!record) continue;
    const tab = record.indexOf('\t');
    const [mode, type, oid, size] = record.slice(0, tab).split(/\s+/);
    if (type !== 'blob' || mode === '120000') continue;
    entries.push({ mode, oid, size: Number(size), path: record.slice(tab + 1) });
  }
  return entries;
}

/** A change of one file in an export commit. */
export type FileChange = { path: string; content: Buffer } | { path: string; delete: true };

export interface CommitInput {
  parent: string | null;
  message: string;
  author: { name: string; email: string };
  committer: { name: string; email: string };
  changes: FileChange[];
  /** Seconds since the epoch. */
  time: number;
}

function quotePath(path: string): string {
  if (!/^"|\n|\\/.test(path)) return path;
  return `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

function person(who: { name: string; email: string }): string {
  const clean = (text: string) => text.replace(/[<>\n]/g, '').trim() || 'unknown';
  return `${clean(who.name)} <${clean(who.email)}>`;
}

/**
 * Writes one commit over `parent` with the given changes (one `git fast-import`, whatever their number);
 * answers its id, or null when it would change nothing (an export without changes makes no commit).
 */
export async function writeCommit(gitDir: string, input: CommitInput): Promise<string | null> {
  const chunks: Buffer[] = [];
  const text = (value: string) => chunks.push(Buffer.from(value, 'utf8'));
  const data = (bytes: Buffer) => {
    text(`data ${bytes.length}\n`);
    chunks.push(bytes);
    text('\n');
  };
  text('commit refs/quire/export\n');
  text(`author ${person(input.author)} ${input.time} +0000\n`);
  text(`committer ${person(input.committer)} ${input.time} +0000\n`);
  data(Buffer.from(input.message, 'utf8'));
  if (input.parent) text(`from ${input.parent}\n`);
  else text('deleteall\n');
  for (const change of input.changes) {
    if ('delete' in change) text(`D ${quotePath(change.path)}\n`);
    else {
      text(`M 100644 inline ${quotePath(change.path)}\n`);
      data(change.content);
    }
  }
  text('done\n');
  // fast-import refuses to move a ref backwards without --force; the ref is ours alone.
  await git(['fast-import', '--quiet', '--force', '--done'], { gitDir, input: Buffer.concat(chunks) });
  const commit = await gitText(['rev-parse', '--verify', 'refs/quire/export^{commit}'], { gitDir });
  if (input.parent) {
    const [before, after] = await Promise.all([gitText(['rev-parse', `${input.parent}^{tree}`], { gitDir }), gitText(['rev-parse', `${commit}^{tree}`], { gitDir })]);
    if (before === after) return null;
  }
  return commit;
}

/** Pushes a commit to the remote's ref, never forcing: a branch that moved meanwhile refuses it. */
export async function pushCommit(gitDir: string, url: string, commit: string, ref: string, config: Array<[string, string]>, signal?: AbortSignal): Promise<void> {
  try {
    await git(['push', '--quiet', '--', url, `${commit}:${ref}`], { gitDir, config, signal });
  } catch (error) {
    throw remoteError(error, url);
  }
  await git(['update-ref', 'refs/quire/remote', commit], { gitDir });
}
