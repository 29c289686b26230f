import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDueJobs } from '../../src/jobs/index.ts';
import type { TestApp } from '../helpers/app.ts';

const dir = join(import.meta.dirname, '../fixtures/openapi');

/** A fixture description's text (test/fixtures/openapi/). */
export function fixture(name: string): string {
  return readFileSync(join(dir, name), 'utf8');
}

/** Runs the due jobs until none is left (processing, reprocessing). */
export async function drainJobs(t: TestApp): Promise<void> {
  for (let round = 0; round < 10; round++) {
    const report = await runDueJobs(t.app.services, { workerId: 'test-worker' });
    if (report.claimed === 0) return;
  }
}
