import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The worker bundle (scripts/build-worker.mjs): the modules whose functions run on the worker pool, built into
 * plain JavaScript in .tmp/worker-bundle/, so that a worker thread loads a few files at Node's own speed instead
 * of compiling some 70 TypeScript sources through a tsx loader of its own (docs/decisions/0142). It is used only
 * when every source file it was built from has, now, the content it was built from (SHA-256, listed in its
 * manifest): a changed source never runs as the old code; the pool then loads the TypeScript sources, as
 * without a bundle, and `quire serve` rebuilds the bundle at start (src/server.ts).
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BUNDLE_DIR = join(ROOT, '.tmp', 'worker-bundle');

interface Manifest {
  /** Source module (relative to the root) → its file in the bundle. */
  modules: Record<string, string>;
  /** Every file the bundle was built from (relative to the root) → the SHA-256 of its content. */
  inputs: Record<string, string>;
}

/** Why the bundle is not used ('missing' or 'stale'), or the URL of each module's file in it, by the module's URL. */
export type BundleState = { usable: true; modules: Record<string, string> } | { usable: false; reason: 'missing' | 'stale'; file?: string };

/** Reads the manifest and checks every file against it (about 70 small files: a few milliseconds). */
export function workerBundleState(dir = BUNDLE_DIR, root = ROOT): BundleState {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    return { usable: false, reason: 'missing' };
  }
  for (const [file, hash] of Object.entries(manifest.inputs)) {
    let content: Buffer;
    try {
      content = readFileSync(join(root, file));
    } catch {
      return { usable: false, reason: 'stale', file };
    }
    if (createHash('sha256').update(content).digest('hex') !== hash) return { usable: false, reason: 'stale', file };
  }
  const modules: Record<string, string> = {};
  for (const [source, built] of Object.entries(manifest.modules)) {
    modules[pathToFileURL(join(root, source)).href] = pathToFileURL(join(dir, built)).href;
  }
  return { usable: true, modules };
}

/**
 * Builds the bundle again when it is missing or stale (`quire serve`, at start, before any thread loads a
 * module); answers what the threads will load and whether it was built now. Without esbuild (it comes with tsx)
 * the threads load the TypeScript sources.
 */
export async function ensureWorkerBundle(): Promise<{ state: BundleState; built: boolean }> {
  const state = workerBundleState();
  if (state.usable) return { state, built: false };
  const script = pathToFileURL(join(ROOT, 'scripts', 'build-worker.mjs')).href;
  try {
    const { buildWorkerBundle } = (await import(script)) as { buildWorkerBundle: (options: { quiet: boolean }) => Promise<string | undefined> };
    await buildWorkerBundle({ quiet: true });
  } catch {
    return { state, built: false };
  }
  return { state: workerBundleState(), built: true };
}
