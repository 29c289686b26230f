import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commonTop, isJunk } from '../../src/imports/fileset.ts';

/** The two path rules that archive imports and Git imports share (src/imports/fileset.ts). */
describe('the paths of an imported file set', () => {
  it('steps into one top folder, answered as a prefix with its trailing slash', () => {
    assert.equal(commonTop(['docs/README.md', 'docs/guide/start.md', 'docs/.gitbook.yaml']), 'docs/');
    assert.equal(commonTop(['docs/']), 'docs/', 'a folder entry of an archive names its folder');
    const top = commonTop(['book/a.md']);
    assert.equal(`${top}.gitbook.yaml`, 'book/.gitbook.yaml', 'the prefix and a name make the path');
  });

  it('answers no prefix when the files are not all in one folder', () => {
    assert.equal(commonTop([]), '');
    assert.equal(commonTop(['README.md']), '');
    assert.equal(commonTop(['README.md', 'docs/a.md']), '');
    assert.equal(commonTop(['docs/a.md', 'guide/b.md']), '');
  });

  it('leaves out the bookkeeping of operating systems, version control and package managers, at any depth', () => {
    for (const path of ['__MACOSX/docs/._a.md', 'docs/.DS_Store', '.git/config', 'site/node_modules/x/README.md', 'img/Thumbs.db']) assert.equal(isJunk(path), true, path);
    for (const path of ['docs/a.md', 'git/notes.md', 'docs/.gitbook.yaml', 'macosx.md']) assert.equal(isJunk(path), false, path);
  });
});
