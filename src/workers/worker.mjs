// The entry of every worker thread of the pool (src/workers/pool.ts). A worker loads a module from the worker
// bundle when the pool found it current (workerData.bundle maps a module's URL to its plain-JavaScript file:
// src/workers/bundle.ts, scripts/build-worker.mjs), at Node's own speed. Otherwise it loads the TypeScript
// sources the way the process does (bin/quire registers tsx; the tests run `node --import tsx`): through tsx,
// under a namespace of its own, registered on the first such load only (a loader of its own is what made a
// thread cost seconds of CPU), so it works whether or not the thread inherited the process's loader, and never
// compiles a file twice. It runs one exported function of one module per task and answers with its value or a
// description of its error: an Error crossing threads would lose its class and its status, so the pool
// rebuilds it on the calling thread.
import { workerData } from 'node:worker_threads';

const bundle = workerData?.bundle ?? {};
const modules = new Map();
let tsx;

async function load(module) {
  if (Object.hasOwn(bundle, module)) return import(bundle[module]);
  tsx ??= (await import('tsx/esm/api')).register({ namespace: 'quire-worker' });
  return tsx.import(module, import.meta.url);
}

function describe(error) {
  if (error instanceof Error) {
    return { name: error.name, message: error.message, ...(typeof error.status === 'number' ? { status: error.status } : {}) };
  }
  return { name: 'Error', message: String(error) };
}

export default async function run({ module, name, input }) {
  let loaded = modules.get(module);
  if (!loaded) {
    loaded = load(module);
    modules.set(module, loaded);
  }
  try {
    const task = (await loaded)[name];
    if (typeof task !== 'function') throw new Error(`${module} exports no task "${name}".`);
    return { ok: true, value: await task(input) };
  } catch (error) {
    return { ok: false, error: describe(error) };
  }
}
