/**
 * A Chromium CPU profile of typing in the editor on the 1,000-block page (issue 26, decision 0116):
 *
 *   node --import tsx scripts/editor-profile.ts [--no-live] [--keys=N] [--top=N] [--out=file.cpuprofile]
 *
 * Sets up the same server and pages as `npm run bench -- workspace` (bench/workspace.ts), opens the long page
 * in the change request's editor, and records CDP `Profiler.start`/`stop` around N keystrokes typed as the
 * bench types them (one key, then a frame and a task). Live co-editing (y-prosemirror through Hocuspocus) is on
 * as in the bench; `--no-live` hides WebSocket from the page, so the editor opens as it does without live.
 *
 * `--count=a,b` names the functions whose calls a key makes are counted (an unminified build keeps their names;
 * the default list is y-tiptap's selection conversions, the Yjs sync and transactions), with the IndexedDB
 * transactions opened, in a third run of as many keys.
 *
 * It prints the JavaScript time per keystroke (samples that are not idle, which a loaded machine changes
 * far less than wall-clock figures), then the top functions by self and by inclusive time. Function names are
 * readable when the workspace is built without minifying:
 *   node node_modules/vite/bin/vite.js build --config web/vite.config.ts --minify false
 * (then `node scripts/build-web.mjs` again before a bench).
 */
import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { chromiumPath } from '../test/helpers/system.ts';
import { newPage, setUp } from '../bench/workspace.ts';
import { caretAtEnd } from '../bench/workspace-keys.ts';

const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=') as [string, string?]).map(([k, v]) => [k, v ?? 'true']));
const live = !args.has('no-live');
const keys = Number(args.get('keys') ?? 200);
const top = Number(args.get('top') ?? 25);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const IDLE = new Set(['(idle)', '(program)', '(garbage collector)']);

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url ? url.replace(/^.*\/assets\//, '').replace(/^https?:\/\/[^/]+/, '') : '';
  return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
}

/** Self and inclusive milliseconds by function (name and place), and the total of samples by kind. */
export function summarise(profile: Profile): { self: Map<string, number>; inclusive: Map<string, number>; busy: number; total: number; gc: number; program: number } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  let total = 0;
  let gc = 0;
  let program = 0;
  profile.samples.forEach((id, index) => {
    // The time of a sample is the delta to the next one.
    const ms = (profile.timeDeltas[index + 1] ?? 0) / 1000;
    total += ms;
    const node = byId.get(id)!;
    const name = node.callFrame.functionName;
    if (name === '(garbage collector)') gc += ms;
    if (name === '(program)') program += ms;
    if (IDLE.has(name) || name === '(root)') return;
    busy += ms;
    self.set(label(node), (self.get(label(node)) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const here = byId.get(at)!;
      if (here.callFrame.functionName === '(root)') break;
      const key = label(here);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    }
  });
  return { self, inclusive, busy, total, gc, program };
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time: what a loaded machine changes least. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/**
 * Self thread time (CPU time, `tdur`) of complete events on the renderer's main thread, by name (the time in
 * nested events taken out): unlike wall-clock time, a loaded machine hardly changes it.
 */
function traceSelf(events: TraceEvent[]): Array<[string, number]> {
  const main = events.find((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
  const mine = events.filter((event) => main && event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && event.dur !== undefined && event.tdur !== undefined).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const self = new Map<string, number>();
  const stack: TraceEvent[] = [];
  for (const event of mine) {
    while (stack.length && stack.at(-1)!.ts + stack.at(-1)!.dur! <= event.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - event.tdur! / 1000);
    self.set(event.name, (self.get(event.name) ?? 0) + event.tdur! / 1000);
    stack.push(event);
  }
  return [...self].sort((a, b) => b[1] - a[1]);
}

interface Coverage {
  url: string;
  functions: Array<{ functionName: string; ranges: Array<{ count: number }> }>;
}

/** Calls of each named function, from V8's precise coverage (counts since coverage started), in the workspace's own scripts. */
function callCounts(scripts: Coverage[], names: string[]): Map<string, number> {
  const wanted = new Set(names);
  const counts = new Map<string, number>();
  for (const script of scripts) {
    for (const fn of script.functions) {
      if (!wanted.has(fn.functionName)) continue;
      counts.set(fn.functionName, (counts.get(fn.functionName) ?? 0) + (fn.ranges[0]?.count ?? 0));
    }
  }
  return counts;
}

function print(title: string, values: Map<string, number>, perKey: number): void {
  console.log(`\n${title} (ms over the run, then per keystroke)`);
  for (const [name, ms] of [...values].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms.toFixed(1).padStart(9)} ${(ms / perKey).toFixed(3).padStart(8)}  ${name}`);
}

async function main(): Promise<void> {
  const s = await setUp();
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--headless', '--no-sandbox', '--disable-background-networking'] });
  try {
    const page = await newPage(browser, s);
    if (!live) await page.context().addInitScript({ content: 'delete window.WebSocket;' });
    await page.goto(`${s.base}/o/${s.organizationId}/s/${s.spaceId}/cr/${s.changeRequestId}/p/${s.longPage}`);
    await page.waitForFunction((blocks) => (document.querySelector('.page-body')?.childElementCount ?? 0) >= blocks * 0.9 && document.querySelector('.page-body[contenteditable=true]'), s.longBlocks, { polling: 200, timeout: 60_000 });
    // An experiment: extra CSS (a constructed style sheet: the CSP's style-src does not apply) or attributes on the editor.
    if (args.get('css')) await page.evaluate((css) => { const sheet = new CSSStyleSheet(); sheet.replaceSync(css); document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]; }, args.get('css')!);
    if (args.get('attr')) await page.evaluate((attr) => { const [name, value] = attr.split(':'); document.querySelector('.page-body')!.setAttribute(name, value); }, args.get('attr')!);
    const isLive = await page.evaluate(() => typeof WebSocket !== 'undefined');
    // As the bench types: at the end of the last paragraph, one key at a time, each followed by a frame and a task.
    await caretAtEnd(page, '.page-body > p');
    await page.waitForTimeout(1000);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    const text = 'the quick brown fox jumps over the lazy dog ';
    for (let n = 0; n < keys; n++) {
      await page.keyboard.press(text[n % text.length] === ' ' ? 'Space' : text[n % text.length]);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
    }
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
    // What the renderer's main thread did outside JavaScript (style, layout, paint): a trace of as many keys.
    await browser.startTracing(page, { categories: (args.get('categories') ?? 'devtools.timeline,disabled-by-default-devtools.timeline').split(',') });
    for (let n = 0; n < keys; n++) {
      await page.keyboard.press(text[n % text.length] === ' ' ? 'Space' : text[n % text.length]);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
    }
    const traced = await browser.stopTracing();
    if (args.get('trace-out')) writeFileSync(args.get('trace-out')!, traced);
    const trace = JSON.parse(traced.toString()) as { traceEvents: TraceEvent[] };
    if (args.get('out')) writeFileSync(args.get('out')!, JSON.stringify(profile));
    // How many times a key runs the functions named in --count (an unminified build keeps their names), and the
    // IndexedDB transactions it opens: V8's precise coverage counts every call, a third run of as many keys.
    const counted = (args.get('count') ?? 'absolutePositionToRelativePosition,getRelativeSelection,relativePositionToAbsolutePosition,updateYFragment,cleanupTransactions,readUpdateV2,dispatchTransaction').split(',');
    await page.evaluate(() => {
      const native = IDBDatabase.prototype.transaction;
      (window as unknown as { idbTransactions: number }).idbTransactions = 0;
      IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...rest: Parameters<IDBDatabase['transaction']>) {
        (window as unknown as { idbTransactions: number }).idbTransactions++;
        return native.apply(this, rest);
      } as IDBDatabase['transaction'];
    });
    await cdp.send('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    const before = (await cdp.send('Profiler.takePreciseCoverage')) as unknown as { result: Coverage[] };
    for (let n = 0; n < keys; n++) {
      await page.keyboard.press(text[n % text.length] === ' ' ? 'Space' : text[n % text.length]);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
    }
    // The writes after the frame and the carets published at the provider's pace belong to the keys too.
    await page.waitForTimeout(1000);
    const coverage = (await cdp.send('Profiler.takePreciseCoverage')) as unknown as { result: Coverage[] };
    await cdp.send('Profiler.stopPreciseCoverage');
    const idbTransactions = await page.evaluate(() => (window as unknown as { idbTransactions: number }).idbTransactions);
    const calls = callCounts(coverage.result, counted);
    const callsBefore = callCounts(before.result, counted);
    const typed = await page.evaluate(() => document.querySelector('.page-body > p:last-of-type')?.textContent?.length ?? 0);
    const { self, inclusive, busy, total, gc, program } = summarise(profile);
    console.log(`Chromium ${browser.version()}, live co-editing ${isLive ? 'on' : 'off'}, ${keys} keystrokes (last paragraph now ${typed} characters)`);
    console.log(`profile ${total.toFixed(0)} ms: JavaScript ${busy.toFixed(1)} ms = ${(busy / keys).toFixed(2)} ms per keystroke; garbage collection ${(gc / keys).toFixed(2)} ms and (program: style, layout, paint, input) ${(program / keys).toFixed(2)} ms per keystroke`);
    const threadTime = traceSelf(trace.traceEvents);
    const cpu = threadTime.reduce((sum, [, ms]) => sum + ms, 0);
    console.log(`\nThe renderer main thread's CPU time (trace events' thread time, a second run of as many keys): ${(cpu / keys).toFixed(2)} ms per keystroke, by event (self):`);
    for (const [name, ms] of threadTime.slice(0, 14)) console.log(`${(ms / keys).toFixed(3).padStart(9)}  ${name}`);
    console.log(`\nCalls per keystroke (precise coverage, a third run of as many keys and a second after them):`);
    for (const name of counted) console.log(`${(((calls.get(name) ?? 0) - (callsBefore.get(name) ?? 0)) / keys).toFixed(2).padStart(9)}  ${name}`);
    console.log(`${(idbTransactions / keys).toFixed(2).padStart(9)}  IndexedDB transactions`);
    print('Top functions by self time', self, keys);
    print('Top functions by inclusive time', inclusive, keys);
  } finally {
    await browser.close();
    await s.close();
  }
}

await main();
