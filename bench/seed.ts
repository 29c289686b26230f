/** Fills a bench database with spaces of many pages, through the same content writer imports use. */
import { join } from 'node:path';
import { loadConfig, resolveMasterKey } from '../src/config.ts';
import { createContext, type Context } from '../src/context.ts';
import { RevisionWriter } from '../src/content/writer.ts';
import { createServices } from '../src/services.ts';
import { openMigratedDatabase } from '../src/server.ts';
import { FolderBlobStore } from '../src/storage/blobs.ts';

/** A page body of about a kilobyte, with headings, a list and code. */
export function pageMarkdown(n: number): string {
  return [
    `# Topic ${n}`,
    '',
    `This page explains topic ${n} of the product: what it does, how to set it up, and what to watch for.`,
    '',
    '## Setting it up',
    '',
    '1. Install the package.',
    '2. Add the configuration below.',
    '3. Restart the service.',
    '',
    '```yaml',
    `topic: ${n}`,
    'enabled: true',
    '```',
    '',
    '## Troubleshooting',
    '',
    `If topic ${n} does not start, check the logs and the configuration, then read the related topics.`,
  ].join('\n');
}

export async function withContext<T>(dataDir: string, work: (ctx: Context) => Promise<T>, env: Record<string, string> = {}): Promise<T> {
  const config = loadConfig({ ...process.env, ...env, QUIRE_DATA_DIR: dataDir });
  const masterKey = resolveMasterKey(config);
  const { database } = await openMigratedDatabase(config);
  try {
    const ctx = createContext(createServices({ config, database, masterKey, blobs: new FolderBlobStore(join(dataDir, 'blobs')) }), null);
    return await work(ctx);
  } finally {
    await database.close();
  }
}

/**
 * Waits (at most `seconds`) until the server of `dataDir` has no job due: the work earlier steps left behind
 * (the search index of each duplicated 10,000-page space, run after its request answered) would otherwise run
 * under the next step's timings, in whichever of its runs it happens to meet.
 */
export async function jobsSettled(dataDir: string, seconds = 180): Promise<number> {
  return withContext(dataDir, async (ctx) => {
    const started = Date.now();
    while (Date.now() - started < seconds * 1000) {
      const due = await ctx.db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('status', 'in', ['pending', 'running'])
        .where('run_at', '<=', new Date().toISOString())
        .executeTakeFirstOrThrow();
      if (Number(due.count) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return (Date.now() - started) / 1000;
  });
}

/** A generated page: its title and Markdown body. */
export type PageMaker = (n: number) => { title: string; markdown: string };

const topicPage: PageMaker = (n) => ({ title: `Topic ${n}`, markdown: pageMarkdown(n) });

/**
 * Gives an existing (empty) space `count` pages (made by `page`, `Topic n` pages by default) in groups of 50;
 * returns the id of one page in the middle.
 */
export async function fillSpace(ctx: Context, spaceId: string, count: number, page: PageMaker = topicPage): Promise<string> {
  const space = await ctx.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow();
  const writer = await RevisionWriter.fromRevision(ctx, space.revision_id);
  let middle = '';
  for (let group = 0; group * 50 < count; group++) {
    const children = [];
    for (let i = group * 50; i < Math.min(count, (group + 1) * 50); i++) children.push({ type: 'document' as const, ...page(i) });
    const groupId = writer.addPage({ type: 'document', title: `Chapter ${group}`, markdown: `# Chapter ${group}`, pages: children });
    if (group === Math.floor(count / 100)) middle = groupId;
  }
  const { revisionId } = await writer.commit(ctx, { spaceId, type: 'edits', parents: [space.revision_id] });
  await ctx.db.updateTable('spaces').set({ revision_id: revisionId }).where('id', '=', spaceId).execute();
  return middle;
}
