import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { dialects } from '../helpers/app.ts';
import { createSpace } from '../helpers/content-factory.ts';
import { gitbookFixtureRepo } from './fixture-repo.ts';
import { lastOperation, runJobs } from './helpers.ts';
import type { GitServer } from './server.ts';
import { useGitSuite } from '../helpers/git-suite.ts';
import { needs } from '../helpers/system.ts';

/**
 * A repository GitBook wrote round-trips byte-identically: import, then export with nothing changed in
 * between, makes no commit. On the fixtures laid out as GitBook does (test/fixtures/gitbook), and on the
 * real repositories of a corpus when the machine has one (QUIRE_GIT_CORPUS, a folder of Git repositories;
 * /work/corpus by default).
 */
const CORPUS = process.env.QUIRE_GIT_CORPUS ?? '/work/corpus';
const corpus = existsSync(CORPUS) ? readdirSync(CORPUS).filter((name) => existsSync(join(CORPUS, name, '.git')) || existsSync(join(CORPUS, name, 'HEAD'))) : [];

for (const dialect of dialects) {
  describe(`Git round trip [${dialect}]`, { skip: needs('git') }, () => {
    const git = useGitSuite(dialect);

    const roundTrip = async (name: string, ref: string) => {
      const spaceId = await createSpace(git.t.ctx, git.world.organizationId);
      const api = git.world.members.edit.api;
      const body = { url: git.remote.url(name), ref };
      const head = git.remote.head(name, ref);
      assert.equal((await api.post(`/v1/spaces/${spaceId}/git/import`, body)).status, 204);
      await runJobs(git.t.ctx);
      const imported = await lastOperation(git.t.ctx, spaceId);
      assert.equal(imported.state, 'success', imported.error ?? '');
      git.t.clock.advance(1000);
      assert.equal((await api.post(`/v1/spaces/${spaceId}/git/export`, { ...body, commitMessage: 'Round trip' })).status, 204);
      await runJobs(git.t.ctx);
      const exported = await lastOperation(git.t.ctx, spaceId);
      assert.equal(exported.state, 'success', exported.error ?? '');
      if (git.remote.head(name, ref) !== head) assert.fail(`the export made a commit:\n${git.remote.diff(name, head, git.remote.head(name, ref), '--stat').slice(0, 3000)}\n${git.remote.diff(name, head, git.remote.head(name, ref), '-U1').slice(0, 3000)}`);
      const pages = (await api.get(`/v1/spaces/${spaceId}/content`)).body;
      const count = (list: Array<{ pages?: unknown[] }>): number => list.reduce((n, page) => n + 1 + count((page.pages ?? []) as Array<{ pages?: unknown[] }>), 0);
      return { pages: count(pages.pages), files: pages.files.length, reusableContents: pages.reusableContents.length };
    };

    it('imports the GitBook-layout fixtures and exports them back without a commit', async () => {
      git.remote.createRepo('fixtures', gitbookFixtureRepo());
      const figures = await roundTrip('fixtures', 'refs/heads/main');
      assert.ok(figures.pages >= 30, `pages: ${figures.pages}`);
      assert.ok(figures.files >= 10, `files: ${figures.files}`);
      assert.equal(figures.reusableContents, 1);
    });

    for (const name of corpus) {
      it(`round-trips the real repository ${name} byte-identically`, async () => {
        git.remote.adoptRepo(name, join(CORPUS, name));
        const figures = await roundTrip(name, defaultBranch(git.remote, name));
        console.log(`# ${name}: ${figures.pages} pages, ${figures.files} files, ${figures.reusableContents} reusable contents; import then export: no commit`);
      });
    }
  });
}

/** The branch a served repository's HEAD names (refs/heads/…). */
function defaultBranch(remote: GitServer, name: string): string {
  return readFileSync(join(remote.root, 'repos', `${name}.git`, 'HEAD'), 'utf8').replace(/^ref: /, '').trim();
}
