/**
 * What the slow keys of the keystroke bench do that the others do not (issue 26):
 *
 *   node --import tsx scripts/keys-tail.ts [--keys=200] [--trace-out=file.json]
 *
 * Types as `BENCH_WORKSPACE_ONLY=keys npm run bench -- workspace` does with frames on demand (decision 0149),
 * with a devtools trace on, and prints for the keys above the p90 and for the keys around the median: the
 * renderer main thread's top-level work inside each key's window (its keydown to its frame's task) grouped by
 * kind (timers, messages, idle callbacks, garbage collection, layout, paint…), and the bench process's own stalls
 * in the same window (the server runs in the bench's process: a stall delays the frame the bench asks for).
 * Then the keys by place (1–3, 4–10, 11–30, later: wall time and the main thread's CPU, which holds under load)
 * and the typing warm-up's mark, if the page made one (decision 0154).
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { onPath } from '../test/helpers/system.ts';
import { openLongPageIn, setUp } from '../bench/workspace.ts';
import { caretAtEnd, OnDemandFrames, text, watchKeys } from '../bench/workspace-keys.ts';
import { WARM_MARK } from '../web/src/editor/warm-typing-report.ts';

const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=') as [string, string?]).map(([k, v]) => [k, v ?? 'true']));
const count = Number(args.get('keys') ?? 200);

interface Profile { nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>; startTime: number; samples: number[]; timeDeltas: number[] }
interface TraceEvent { name: string; ph: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number; args?: { name?: string; data?: Record<string, unknown> } }

/** The bench process's event loop: stalls over 3 ms, as [start, end] in performance.now() ms. */
function watchStalls(): { stalls: Array<[number, number, number]>; stop(): void } {
  // Each stall's start, end and the process's own CPU time meanwhile (busy: the server or the driver at work; near
  // zero: the process was not given a core).
  const stalls: Array<[number, number, number]> = [];
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let stopped = false;
  const tick = () => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    if (now - last > 4) stalls.push([last + 1, now, (cpu.user + cpu.system) / 1000]);
    last = now;
    lastCpu = process.cpuUsage();
    if (!stopped) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  return { stalls, stop: () => void (stopped = true) };
}

const overlap = (a: number, b: number, c: number, d: number) => Math.max(0, Math.min(b, d) - Math.max(a, c));

async function main(): Promise<void> {
  const s = await setUp();
  const shell = process.env.QUIRE_TEST_CHROMIUM || onPath('chromium-headless-shell');
  if (!shell) throw new Error('needs chromium-headless-shell');
  const frames = await OnDemandFrames.launch(s, shell);
  try {
    await openLongPageIn(frames.page, s);
    const target = '.page-body > p';
    await caretAtEnd(frames.page, target);
    await watchKeys(frames.page);
    await frames.page.waitForTimeout(Number(args.get('wait') ?? 500));
    await frames.pause();
    await frames.browser.startTracing(frames.page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8'] });
    await frames.cdp.send('Profiler.enable');
    await frames.cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await frames.cdp.send('Profiler.start');
    const watch = watchStalls();
    const sent: Array<{ start: number; keyDone: number; frameDone: number }> = [];
    for (let n = 0; n < count; n++) {
      const { start, keyDone, frameDone } = await frames.key(text[n % text.length]);
      sent.push({ start, keyDone, frameDone });
    }
    watch.stop();
    const { profile } = (await frames.cdp.send('Profiler.stop')) as unknown as { profile: Profile };
    const traced = await frames.browser.stopTracing();
    frames.tick();
    if (args.get('trace-out')) writeFileSync(args.get('trace-out')!, traced);
    const inPage = await frames.page.evaluate(() => (window as unknown as { benchMarks: number[] }).benchMarks);
    const events = (JSON.parse(traced.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
    const keydowns = events.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown');
    const { pid, tid } = keydowns[0]!;
    const thread = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.dur !== undefined && !/RunTask/.test(e.name)).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    // Top-level: not inside an earlier event of the thread.
    const top: TraceEvent[] = [];
    let end = -Infinity;
    for (const e of thread) {
      if (e.ts >= end) { top.push(e); end = e.ts + e.dur!; }
    }
    const gcs = thread.filter((e) => /GC|Scavenge|MarkCompact/i.test(e.name) && !/^V8\.GC_/.test(e.name));
    const label = (e: TraceEvent) => {
      const data = e.args?.data ?? {};
      if (e.name === 'FunctionCall') return `FunctionCall ${String(data.functionName || '?')} ${String(data.url ?? '').replace(/^.*\//, '')}:${String(data.lineNumber ?? '')}`;
      if (e.name === 'EventDispatch') return `EventDispatch ${String(data.type)}`;
      return e.name;
    };
    // The profile's samples: their times (the trace's clock) and each one's stack as a set of function labels.
    const sampleTimes: number[] = [];
    let time = profile.startTime;
    for (const delta of profile.timeDeltas) sampleTimes.push((time += delta));
    const firstSample = (from: number) => { let lo = 0, hi = sampleTimes.length; while (lo < hi) { const mid = (lo + hi) >> 1; if (sampleTimes[mid]! < from) lo = mid + 1; else hi = mid; } return lo; };
    const parentOf = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
    const nodeById = new Map(profile.nodes.map((node) => [node.id, node]));
    const stacks = new Map<number, Set<string>>();
    for (const node of profile.nodes) {
      const names = new Set<string>();
      for (let id: number | undefined = node.id; id !== undefined; id = parentOf.get(id)) {
        const { functionName, url, lineNumber } = nodeById.get(id)!.callFrame;
        names.add(`${functionName || '(anonymous)'} ${url.replace(/^.*\//, '')}:${lineNumber + 1}`);
      }
      stacks.set(node.id, names);
    }
    // --stacks=N: the heaviest call paths (profile samples by their full stack) inside key N's window.
    if (args.get('stacks')) {
      const n = Number(args.get('stacks'));
      const from = keydowns[n]!.ts;
      const to = from + (inPage[n] ?? 0) * 1000;
      const byNode = new Map<number, number>();
      for (let i = firstSample(from); i < sampleTimes.length && sampleTimes[i]! < to; i++) byNode.set(profile.samples[i]!, (byNode.get(profile.samples[i]!) ?? 0) + ((sampleTimes[i + 1] ?? sampleTimes[i]!) - sampleTimes[i]!) / 1000);
      // Attribute each sample to its path, cut below the 14 innermost frames.
      const paths = new Map<string, number>();
      for (const [id, ms] of byNode) {
        const frames: string[] = [];
        for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) frames.push(nodeById.get(at)!.callFrame.functionName || '(anonymous)');
        const path = frames.slice(0, 14).join(' < ');
        paths.set(path, (paths.get(path) ?? 0) + ms);
      }
      console.log(`\nkey #${n} (${inPage[n]?.toFixed(1)} ms), heaviest paths:`);
      for (const [path, ms] of [...paths].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${ms.toFixed(2).padStart(6)}  ${path}`);
    }
    const keys = keydowns.slice(0, count).map((k, i) => {
      const from = k.ts;
      const to = k.ts + (inPage[i] ?? 0) * 1000;
      const work = new Map<string, number>();
      for (const e of top) {
        const o = overlap(from, to, e.ts, e.ts + e.dur!);
        if (o > 0 && e !== k) work.set(label(e), (work.get(label(e)) ?? 0) + o / 1000);
      }
      const fns = new Map<string, number>();
      for (let n = firstSample(from); n < sampleTimes.length && sampleTimes[n]! < to; n++) {
        const dt = (sampleTimes[n + 1] ?? sampleTimes[n]!) - sampleTimes[n]!;
        for (const name of stacks.get(profile.samples[n]!) ?? []) fns.set(name, (fns.get(name) ?? 0) + dt / 1000);
      }
      // The main thread's own CPU in the window (the trace's thread durations of the top-level work starting in it):
      // under load it holds where wall times do not.
      const cpu = top.reduce((sum, e) => sum + (e.ts >= from && e.ts < to ? (e.tdur ?? 0) / 1000 : 0), 0);
      const gc = gcs.reduce((sum, e) => sum + overlap(from, to, e.ts, e.ts + e.dur!) / 1000, 0);
      const { start, keyDone, frameDone } = sent[i]!;
      const stall = watch.stalls.reduce((sum, [a, b]) => sum + overlap(start, frameDone, a, b), 0);
      const stallCpu = watch.stalls.reduce((sum, [a, b, cpu]) => sum + (overlap(start, frameDone, a, b) > 0 ? cpu : 0), 0);
      return { i, ms: inPage[i]!, cpu, work, fns, gc, stall, stallCpu, keyRound: keyDone - start, frameRound: frameDone - keyDone };
    });
    const sorted = [...keys].sort((a, b) => a.ms - b.ms);
    const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!.ms;
    console.log(`keys ${keys.length}: p50 ${pct(50).toFixed(1)} p90 ${pct(90).toFixed(1)} p95 ${pct(95).toFixed(1)} p99 ${pct(99).toFixed(1)} ms`);
    const groups: Array<[string, typeof keys]> = [
      ['median keys (p40–p60)', sorted.slice(Math.floor(sorted.length * 0.4), Math.ceil(sorted.length * 0.6))],
      ['tail keys (above p90)', sorted.slice(Math.floor(sorted.length * 0.9))],
    ];
    const fnsByGroup: Array<Map<string, number>> = [];
    for (const [name, group] of groups) {
      const total = new Map<string, number>();
      const seen = new Map<string, number>();
      for (const k of group) for (const [w, v] of k.work) { total.set(w, (total.get(w) ?? 0) + v); seen.set(w, (seen.get(w) ?? 0) + 1); }
      const mean = (f: (k: (typeof keys)[number]) => number) => (group.reduce((sum, k) => sum + f(k), 0) / group.length).toFixed(2);
      console.log(`\n${name}: ${group.length} keys, mean ${mean((k) => k.ms)} ms; gc ${mean((k) => k.gc)}; bench-process stall ${mean((k) => k.stall)} (its CPU ${mean((k) => k.stallCpu)}); keyDown round ${mean((k) => k.keyRound)}; frame round ${mean((k) => k.frameRound)}`);
      for (const [w, v] of [...total].sort((a, b) => b[1] - a[1]).slice(0, 18)) console.log(`  ${(v / group.length).toFixed(2).padStart(6)} ms/key  in ${String(seen.get(w)).padStart(3)} keys  ${w}`);
      const fns = new Map<string, number>();
      for (const k of group) for (const [w, v] of k.fns) fns.set(w, (fns.get(w) ?? 0) + v / group.length);
      fnsByGroup.push(fns);
    }
    const [mid, tail] = fnsByGroup as [Map<string, number>, Map<string, number>];
    console.log('\nJavaScript (profile samples, inclusive) a key: tail minus median, largest differences');
    for (const [w, v] of [...tail].map(([w, v]) => [w, v - (mid.get(w) ?? 0)] as [string, number]).sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`  ${v.toFixed(2).padStart(6)} (median ${(mid.get(w) ?? 0).toFixed(2)}, tail ${(tail.get(w) ?? 0).toFixed(2)})  ${w}`);
    if (args.get('keys-out')) writeFileSync(args.get('keys-out')!, JSON.stringify(keys.map((k) => ({ ...k, work: Object.fromEntries(k.work), fns: Object.fromEntries(k.fns) }))));
    console.log(`\nin order: ${keys.map((k) => k.ms.toFixed(0)).join(' ')}`);
    // The first keys after the page opened against later ones (decision 0154: the typing path warmed at idle).
    const mean = (from: number, to: number) => { const part = keys.slice(from, to).map((k) => k.ms); return part.length ? (part.reduce((a, b) => a + b, 0) / part.length).toFixed(1) : '-'; };
    const meanCpu = (from: number, to: number) => { const part = keys.slice(from, to).map((k) => k.cpu); return part.length ? (part.reduce((a, b) => a + b, 0) / part.length).toFixed(1) : '-'; };
    console.log(`by place: keys 1–3 ${mean(0, 3)}, 4–10 ${mean(3, 10)}, 11–30 ${mean(10, 30)}, 31– ${mean(30, keys.length)} ms (means)`);
    console.log(`by place, main thread CPU: keys 1–3 ${meanCpu(0, 3)}, 4–10 ${meanCpu(3, 10)}, 11–30 ${meanCpu(10, 30)}, 31– ${meanCpu(30, keys.length)} ms (means)`);
    console.log(`CPU in order: ${keys.slice(0, 12).map((k) => k.cpu.toFixed(1)).join(' ')}`);
    const warmed = await frames.page.evaluate((name) => performance.getEntriesByName(name).map((mark) => ({ at: Math.round(mark.startTime), ...(mark as PerformanceMark).detail })), WARM_MARK);
    console.log(`typing warm-up: ${warmed.length ? warmed.map((w) => JSON.stringify(w)).join(' ') : 'none'}`);
    console.log('\nslowest keys:');
    for (const k of sorted.slice(-12).reverse()) console.log(`  #${k.i} ${k.ms.toFixed(1)} ms: stall ${k.stall.toFixed(1)}, gc ${k.gc.toFixed(1)}, keyDown ${k.keyRound.toFixed(1)}, frame ${k.frameRound.toFixed(1)}; ${[...k.work].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([w, v]) => `${w} ${v.toFixed(1)}`).join(', ')}`);
  } finally {
    await frames.close();
    await s.close();
  }
}

await main();
