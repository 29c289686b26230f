// Loaded into every test file's process by scripts/test.mjs (--import): when the process ends, appends a line
// "file<TAB>wall seconds<TAB>CPU seconds" to QUIRE_TEST_TIMES. The CPU time is the process's own and that of the
// child processes it waited for (bin/quire, git, Chromium and theirs), from /proc on Linux.
//
// A file's process has QUIRE_TEST_FILE_SECONDS to end (the runner's --test-timeout stops it then, and the file
// fails). Ten seconds before, what still holds the process open (sockets and their addresses, timers, child
// processes and their commands) is written to QUIRE_TEST_STILL_RUNNING/<file>.txt, which scripts/test.mjs prints:
// the runner's stop itself leaves no word from the process.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { isMainThread } from 'node:worker_threads';

const log = process.env.QUIRE_TEST_TIMES;
const bundle = process.env.QUIRE_TEST_BUNDLE_DIR;
/** The test file, by its source's path when it runs from the test bundle (test/a.test.mjs there: test/a.test.ts). */
const file = bundle && process.argv[1]?.startsWith(`${bundle}/`)
  ? resolve(import.meta.dirname, '..', relative(bundle, process.argv[1]).replace(/\.mjs$/, '.ts'))
  : process.argv[1];
// The test file's own process only: not its worker threads, nor the runner, nor a script a test starts.
if (log && isMainThread && file?.endsWith('.test.ts')) {
  process.on('exit', () => {
    const own = process.resourceUsage();
    let children = 0;
    try {
      // Fields 16 and 17 of /proc/self/stat (cutime, cstime), counted after the command name's closing parenthesis.
      const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
      children = (Number(fields[13]) + Number(fields[14])) / 100;
    } catch {
      // Not Linux: the process's own time only.
    }
    const cpu = (own.userCPUTime + own.systemCPUTime) / 1e6 + children;
    appendFileSync(log, `${relative(process.cwd(), file)}\t${process.uptime().toFixed(2)}\t${cpu.toFixed(2)}\n`);
  });
}

const limit = Number(process.env.QUIRE_TEST_FILE_SECONDS);
const stillRunning = process.env.QUIRE_TEST_STILL_RUNNING;
/** Each timer set and not yet fired nor cleared, with where it was set (a timer that holds the process open is named by it). */
const timers = new Map();
if (stillRunning && limit > 10 && isMainThread && file?.endsWith('.test.ts')) {
  watchTimers();
  // The runner stops a file past its limit with SIGTERM; Playwright, while a browser is open, takes SIGTERM to
  // close the browser and leaves the process running (seen: a browser test's process outlived its stop, and the
  // runner waited for it). A listener of our own ends the process (Playwright's 'exit' handler kills Chromium).
  process.on('SIGTERM', () => process.exit(1));
  setTimeout(() => {
    const name = relative(process.cwd(), file);
    const lines = [`${name}: still running after ${limit - 10} s; what holds its process open:`, `  ${process.getActiveResourcesInfo().join(', ')}`];
    for (const { what, since } of globalThis[Symbol.for('quire.test.requestsInFlight')]?.values() ?? []) {
      lines.push(`  a request not answered after ${((Date.now() - since) / 1000).toFixed(1)} s: ${what}`);
    }
    for (const [timer, where] of timers) {
      const set = where.stack.split('\n').slice(2, 9).map((line) => line.trim()).join(' < ');
      if (timer.hasRef?.() && !timer._destroyed) lines.push(`  a timer of ${timer._idleTimeout} ms${timer._repeat ? ', repeating' : ''}, set ${set}`);
    }
    for (const handle of process._getActiveHandles?.() ?? []) {
      if (handle !== process.stdout && handle !== process.stderr && handle !== process.stdin) lines.push(`  ${describe(handle)}`);
    }
    mkdirSync(stillRunning, { recursive: true });
    writeFileSync(join(stillRunning, `${name.replaceAll('/', '_')}.txt`), `${lines.join('\n')}\n`);
  }, (limit - 10) * 1000).unref();
}

/** One handle, as far as can be told: a socket's addresses, a child process's command, a timer's delay. */
function describe(handle) {
  const kind = handle?.constructor?.name ?? typeof handle;
  if (handle?.remoteAddress || handle?.localPort) return `${kind} ${handle.localAddress}:${handle.localPort} -> ${handle.remoteAddress}:${handle.remotePort}`;
  if (handle?.spawnargs) return `${kind} pid ${handle.pid}: ${handle.spawnargs.join(' ').slice(0, 200)}`;
  if (typeof handle?.address === 'function') {
    try {
      return `${kind} listening on ${JSON.stringify(handle.address())}`;
    } catch {
      return kind;
    }
  }
  if (handle?._idleTimeout !== undefined) return `${kind} of ${handle._idleTimeout} ms: ${String(handle._onTimeout).slice(0, 200)}`;
  if (handle?.fd !== undefined) return `${kind} fd ${handle.fd}`;
  return kind;
}

/** Wraps the global setTimeout and setInterval (and their clears) to keep `timers` (what the dump above reads). */
function watchTimers() {
  const wrap = (original, repeating) => {
    const wrapped = function (callback, ...rest) {
      if (typeof callback !== 'function') return original.call(this, callback, ...rest);
      // The stack is captured now and written out only if the dump reads it (with source maps on, formatting it
      // maps every frame: too dear for every timer).
      const where = new Error();
      let timer;
      timer = original.call(this, function (...args) {
        if (!repeating) timers.delete(timer);
        return callback.apply(this, args);
      }, ...rest);
      timers.set(timer, where);
      return timer;
    };
    Object.defineProperties(wrapped, Object.getOwnPropertyDescriptors(original));
    return wrapped;
  };
  const unwrapClear = (original) => function (timer) {
    timers.delete(timer);
    return original.call(this, timer);
  };
  globalThis.setTimeout = wrap(globalThis.setTimeout, false);
  globalThis.setInterval = wrap(globalThis.setInterval, true);
  globalThis.clearTimeout = unwrapClear(globalThis.clearTimeout);
  globalThis.clearInterval = unwrapClear(globalThis.clearInterval);
}
