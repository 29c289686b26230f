/**
 * The 50,000-page part of the Git bench (bench/git.ts), in a process of its own: imports the repository at
 * the URL given into a new space of a fresh SQLite data folder, edits one page, exports it, and prints
 * `{ imported, exported, rss }` (milliseconds, and this process's peak RSS in MB) as its last line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOrganization } from '../src/modules/orgs/service.ts';
import { createSpace } from '../test/helpers/content-factory.ts';
import { editOnePage, operate } from './git.ts';
import { withContext } from './seed.ts';

const url = process.argv[2];
if (!url) throw new Error('Usage: node --import tsx bench/git-large.ts <repository URL>');
const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-git-large-'));
process.env.QUIRE_IMPORT_ALLOW_PRIVATE = '1';
try {
  const result = await withContext(dataDir, async (ctx) => {
    const { organization } = await createOrganization(ctx, { title: 'Bench', ownerEmail: 'bench@example.com' });
    const spaceId = await createSpace(ctx, organization.id);
    const imported = await operate(ctx, spaceId, 'import', url);
    await editOnePage(ctx, spaceId, 0);
    const exported = await operate(ctx, spaceId, 'export', url);
    const failed = await ctx.db.selectFrom('git_operations').select(['state', 'error']).where('state', '!=', 'success').execute();
    if (failed.length > 0) throw new Error(`Bench operations failed: ${JSON.stringify(failed)}`);
    return { imported, exported };
  });
  console.log(JSON.stringify({ ...result, rss: process.resourceUsage().maxRSS / 1024 }));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
