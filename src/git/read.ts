import { posix } from 'node:path';
import type { Context } from '../context.ts';
import { BadRequest } from '../errors.ts';
import { commonTop, importFileSet, isJunk } from '../imports/fileset.ts';
import { readLayoutConfigOffThread } from '../imports/layout.ts';
import { DEFAULT_LIMITS } from '../imports/limits.ts';
import { AssetCollector, type ImportedContent } from '../imports/types.ts';
import type { FileSet } from '../imports/zip.ts';
import { BlobReader } from './cli.ts';
import type { DocsLayout } from './files.ts';
import { listTree, type TreeEntry } from './repository.ts';

/**
 * A commit of the repository read as imported content, through the same layout as folder imports
 * (`.gitbook.yaml`, SUMMARY.md, README.md files, `.gitbook/assets`, `.gitbook/includes`): pages keep their
 * file's bytes as their body and remember their file (`git.path`, relative to the docs folder, and the
 * blob `oid`), so that an export writes back exactly what was read.
 */

export interface GitLimits {
  /** Largest file, in bytes (100 MB). */
  maxFileBytes: number;
  /** Most Markdown files (pages) in the docs folder. */
  maxPages: number;
}

export const DEFAULT_GIT_LIMITS: GitLimits = { maxFileBytes: 100 * 1024 * 1024, maxPages: 100_000 };

export interface ReadCommitOptions {
  projectDirectory: string;
  limits?: GitLimits;
  signal?: AbortSignal;
}

export interface CommitContent {
  content: ImportedContent;
  layout: DocsLayout;
  entries: TreeEntry[];
}

/** Reads a commit of the cached clone as content (files already in blob storage; no database row). */
export async function readCommit(ctx: Pick<Context, 'blobs'>, gitDir: string, commit: string, options: ReadCommitOptions): Promise<CommitContent> {
  const limits = options.limits ?? DEFAULT_GIT_LIMITS;
  const entries = await listTree(gitDir, commit);
  const project = options.projectDirectory;
  const inProject = project ? entries.filter((entry) => entry.path.startsWith(`${project}/`)) : entries;
  if (inProject.length === 0) throw new BadRequest(project ? `The repository has no folder "${project}" at this commit; check repoProjectDirectory.` : 'The repository is empty at this commit; there is nothing to import.');
  const files = new Map<string, TreeEntry>();
  let markdown = 0;
  for (const entry of inProject) {
    const path = project ? entry.path.slice(project.length + 1) : entry.path;
    if (entry.size > limits.maxFileBytes && !isJunk(path)) {
      throw new BadRequest(`The file "${entry.path}" is larger than ${Math.round(limits.maxFileBytes / 1024 / 1024)} MB, the most Git Sync reads; remove it or keep it outside the docs folder.`);
    }
    if (/\.(md|markdown)$/i.test(path)) markdown++;
    files.set(path, entry);
  }
  if (markdown > limits.maxPages) throw new BadRequest(`The repository holds ${markdown} Markdown files, more than the ${limits.maxPages} one space takes; sync a folder of it with repoProjectDirectory.`);

  const reader = new BlobReader(gitDir);
  try {
    const read = (path: string) => {
      if (options.signal?.aborted) throw new BadRequest('The Git operation ran out of time.');
      const entry = files.get(path);
      if (!entry) throw new Error(`No file "${path}" in the commit.`);
      return reader.read(entry.oid);
    };
    const usable = [...files.keys()].filter((path) => !isJunk(path));
    const top = commonTop(usable);
    const configPath = `${top}.gitbook.yaml`;
    const config = await readLayoutConfigOffThread(files.has(configPath) ? (await read(configPath)).toString('utf8') : undefined, options.signal);
    const root = posix.join(project, top, config.root).replace(/^\.$/, '').replace(/^\/+|\/+$/g, '');
    const set: FileSet = { files: [...files].map(([path, entry]) => ({ path, size: entry.size })), read };
    const signal = options.signal ?? new AbortController().signal;
    const content = await importFileSet(set, {
      assets: new AssetCollector(ctx.blobs),
      env: { limits: { ...DEFAULT_LIMITS, maxEntries: Number.MAX_SAFE_INTEGER, maxUnpackedBytes: Number.MAX_SAFE_INTEGER }, signal, allowPrivate: false },
    });
    return { content, layout: { root, readme: config.readme, summary: config.summary, ...(config.redirects ? { redirects: config.redirects } : {}) }, entries };
  } finally {
    reader.close();
  }
}
