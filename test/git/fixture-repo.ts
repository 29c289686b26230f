import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * A repository in GitBook's layout made of the GitBook-format fixtures (test/fixtures/gitbook): the docs
 * under `docs/` (named by `.gitbook.yaml`'s `root`), SUMMARY.md with groups, a README.md, the construct
 * pages and the pages GitBook wrote (each at the depth its `../` links expect), every file they refer to
 * under `.gitbook/assets/`, and the reusable content they include under `.gitbook/includes/`.
 */
const FIXTURES = resolve(import.meta.dirname, '..', 'fixtures', 'gitbook');

export function gitbookFixtureRepo(): Record<string, string | Buffer> {
  const files: Record<string, string | Buffer> = {};
  const docs = (path: string, content: string | Buffer) => (files[`docs/${path}`] = content);
  files['.gitbook.yaml'] = 'root: ./docs/\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n';
  docs('README.md', '# Welcome\n\nThe fixtures of Quire, as GitBook lays them out.\n');
  const summary = ['# Table of contents', '', '* [Welcome](README.md)', ''];
  const assets = new Set<string>();
  const add = (group: string, folder: string) => {
    summary.push(`## ${group}`, '');
    for (const name of readdirSync(join(FIXTURES, folder)).filter((file) => file.endsWith('.md')).sort()) {
      const text = readFileSync(join(FIXTURES, folder, name), 'utf8');
      const depth = Math.max(1, ...[...text.matchAll(/((?:\.\.\/)+)\.gitbook\//g)].map((m) => m[1].length / 3));
      const path = `${folder}/${'x/'.repeat(depth - 1)}${name}`;
      docs(path, text);
      summary.push(`* [${name.replace(/\.md$/, '')}](${path.replace(/ /g, '%20')})`);
      for (const m of text.matchAll(/(?:\.\.\/)+\.gitbook\/(assets|includes)\/([^")\n]+?)(?=["')\n]|\s+")/g)) {
        const asset = decodeURIComponent(m[2]);
        if (m[1] === 'assets') assets.add(asset);
      }
    }
    summary.push('');
  };
  add('Constructs', 'constructs');
  add('Real pages', 'real');
  docs('SUMMARY.md', `${summary.join('\n').replace(/\n+$/, '')}\n`);
  for (const asset of assets) docs(`.gitbook/assets/${asset}`, Buffer.from(`bytes of ${asset}\n`));
  docs('.gitbook/includes/setup-steps.md', '---\ntitle: Setup steps\n---\n\n1. Install.\n2. Configure.\n');
  return files;
}
