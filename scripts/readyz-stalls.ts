import { Session } from 'node:inspector/promises';

/**
 * Where the event loop stalled while some work ran, for scripts/readyz-probe.ts `--stalls`: a 2 ms interval
 * timer records every stretch over `threshold` ms in which it could not run, while the CPU profiler samples
 * the process (node:inspector, 1 ms). For the longest stretches it gives their length, how many samples
 * fell in them (about the milliseconds of CPU the process had: on a loaded machine a stretch with few
 * samples is time the process waited for a core, not work it did) and the heaviest of Quire's own functions
 * in them (inclusive), which is where to cut.
 */
export interface Stall {
  ms: number;
  samples: number;
  /** `function (file)` with milliseconds, heaviest first. */
  frames: string[];
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const microseconds = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Starts watching (the profiler first: starting it stalls the loop itself); `stop` answers the `top` longest
 * stalls over `threshold` ms since, with what ran in them.
 */
export async function watchStalls(options: { threshold?: number; top?: number } = {}): Promise<{ stop: () => Promise<Stall[]> }> {
  const threshold = (options.threshold ?? 80) * 1000;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 1000 });
  await session.post('Profiler.start');
  const gaps: Array<[number, number]> = [];
  let last = microseconds();
  const timer = setInterval(() => {
    const now = microseconds();
    if (now - last > threshold) gaps.push([last, now]);
    last = now;
  }, 2);
  return {
    stop: async () => {
      clearInterval(timer);
      const profile = (await session.post('Profiler.stop')).profile as unknown as Profile;
      session.disconnect();
      return report(profile, gaps, options.top ?? 3);
    },
  };
}

function report(profile: Profile, gaps: Array<[number, number]>, top: number): Stall[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const times: number[] = [];
  let at = profile.startTime;
  for (const delta of profile.timeDeltas) times.push((at += delta));
  return gaps
    .sort((a, b) => b[1] - b[0] - (a[1] - a[0]))
    .slice(0, top)
    .map(([from, to]) => {
      const inclusive = new Map<string, number>();
      let samples = 0;
      for (let i = 0; i < times.length; i++) {
        if (times[i] < from || times[i] > to) continue;
        samples++;
        const spent = (times[i + 1] ?? times[i]) - times[i];
        const seen = new Set<string>();
        for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parent.get(id)) {
          const { functionName, url } = byId.get(id)!.callFrame;
          const file = url.match(/\/(src|scripts|test)\/(.*)$/);
          if (!file) continue;
          const name = `${functionName || '(anonymous)'} (${file[1]}/${file[2]})`;
          if (seen.has(name)) continue;
          seen.add(name);
          inclusive.set(name, (inclusive.get(name) ?? 0) + spent);
        }
      }
      const frames = [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([name, spent]) => `${name} ${Math.round(spent / 1000)} ms`);
      return { ms: Math.round((to - from) / 1000), samples, frames };
    });
}
