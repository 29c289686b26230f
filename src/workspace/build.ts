import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The workspace's built files (web/dist, made by `npm run build:web`, which `prepare` runs on install): the
 * HTML shell and the hashed assets, read once into memory. Vite names every asset by the hash of its content,
 * so each can be cached as immutable; the shell names the current ones and is never cached.
 */
export interface WorkspaceAsset {
  body: Buffer;
  type: string;
  etag: string;
}

export interface WorkspaceBuild {
  shell: Buffer;
  assets: Map<string, WorkspaceAsset>;
}

export const WORKSPACE_DIST = join(import.meta.dirname, '..', '..', 'web', 'dist');

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

let loaded: WorkspaceBuild | null | undefined;

/** The build, or null when web/dist has not been built (the server then says how to build it). */
export function workspaceBuild(dist = WORKSPACE_DIST): WorkspaceBuild | null {
  if (loaded !== undefined && dist === WORKSPACE_DIST) return loaded;
  const shellPath = join(dist, 'index.html');
  let build: WorkspaceBuild | null = null;
  if (existsSync(shellPath)) {
    const assets = new Map<string, WorkspaceAsset>();
    const folder = join(dist, 'assets');
    for (const name of existsSync(folder) ? readdirSync(folder) : []) {
      const body = readFileSync(join(folder, name));
      const type = TYPES[name.slice(name.lastIndexOf('.'))];
      if (!type) continue;
      assets.set(name, { body, type, etag: `"${createHash('sha1').update(body).digest('base64url')}"` });
    }
    build = { shell: readFileSync(shellPath), assets };
  }
  if (dist === WORKSPACE_DIST) loaded = build;
  return build;
}
