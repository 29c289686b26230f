/** Change requests on a 10,000-page space beside a 10-page one: creating one, and merging one that edits a page. */
import { api, median, type Api } from './lib.ts';

export interface BenchSpace {
  spaceId: string;
  /** A document page to edit in each change request. */
  pageId: string;
}

export interface ChangeRequestTimes {
  create: { small: number; large: number };
  merge: { small: number; large: number };
  /** The merge medians of each run. */
  mergeRuns: Array<{ small: number; large: number }>;
}

/**
 * Median milliseconds, over `runs` runs of `perRun` rounds alternating between the two spaces, of creating
 * a change request and of merging it after one page of it was changed (by a page import, not timed); the
 * merge medians of each run too (the issue asks for the ratio to hold in every run).
 */
export async function changeRequestTimes(client: Api, small: BenchSpace, large: BenchSpace, runs: number, perRun: number): Promise<ChangeRequestTimes> {
  const times = { create: { small: [] as number[], large: [] as number[] }, merge: { small: [] as number[], large: [] as number[] } };
  const count = runs * perRun;
  for (let i = 0; i < count; i++) {
    for (const [name, space] of [['small', small], ['large', large]] as const) {
      const base = `/v1/spaces/${space.spaceId}/change-requests`;
      let started = performance.now();
      const cr = await api(client, 'POST', base, { subject: `Bench ${i}` });
      times.create[name].push(performance.now() - started);
      const markdown = `Edited in round ${i}.\n\nThe rest of the page.\n`;
      await api(client, 'POST', `${base}/${cr.id}/content/page/${space.pageId}/import`, { source: 'markdown', url: `data:text/markdown;base64,${Buffer.from(markdown).toString('base64')}` });
      started = performance.now();
      const merged = await api(client, 'POST', `${base}/${cr.id}/merge`);
      times.merge[name].push(performance.now() - started);
      if (merged.result !== 'merge') throw new Error(`The bench merge reported ${merged.result}.`);
    }
  }
  return {
    create: { small: median(times.create.small), large: median(times.create.large) },
    merge: { small: median(times.merge.small), large: median(times.merge.large) },
    mergeRuns: Array.from({ length: runs }, (_, run) => ({
      small: median(times.merge.small.slice(run * perRun, (run + 1) * perRun)),
      large: median(times.merge.large.slice(run * perRun, (run + 1) * perRun)),
    })),
  };
}
