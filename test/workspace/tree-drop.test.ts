import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RevisionPage } from '../../web/src/api/types.ts';
import { documentsOf, dropZone, moveFor } from '../../web/src/pages/tree-drop.ts';

const doc = (id: string, pages: RevisionPage[] = []): RevisionPage => ({ id, type: 'document', title: id, pages });
const group = (id: string, pages: RevisionPage[] = []): RevisionPage => ({ id, type: 'group', title: id, pages });
const link = (id: string): RevisionPage => ({ id, type: 'link', title: id, pages: [] });

/** intro, guides (install, deploy), status (link), reference (group: api) */
const tree = [doc('intro'), doc('guides', [doc('install'), doc('deploy')]), link('status'), group('reference', [doc('api')])];

describe('the page tree: where a dragged page lands (web/src/pages/tree-drop.ts)', () => {
  it('splits a row in quarters (before, inside, after), or halves where the page holds none', () => {
    assert.equal(dropZone(100, 40, 104, true), 'before');
    assert.equal(dropZone(100, 40, 120, true), 'inside');
    assert.equal(dropZone(100, 40, 136, true), 'after');
    assert.equal(dropZone(100, 40, 115, false), 'before');
    assert.equal(dropZone(100, 40, 125, false), 'after');
  });

  it('gives the parent and the index among the siblings without the dragged page', () => {
    assert.deepEqual(moveFor(tree, 'intro', 'status', 'after'), { pageId: 'intro', parent: null, position: 2 });
    assert.deepEqual(moveFor(tree, 'status', 'intro', 'before'), { pageId: 'status', parent: null, position: 0 });
    assert.deepEqual(moveFor(tree, 'deploy', 'install', 'before'), { pageId: 'deploy', parent: 'guides', position: 0 });
    assert.deepEqual(moveFor(tree, 'intro', 'install', 'after'), { pageId: 'intro', parent: 'guides', position: 1 });
    assert.deepEqual(moveFor(tree, 'intro', 'reference', 'inside'), { pageId: 'intro', parent: 'reference', position: 1 });
    assert.deepEqual(moveFor(tree, 'api', 'guides', 'inside'), { pageId: 'api', parent: 'guides', position: 2 });
    assert.deepEqual(moveFor(tree, 'reference', 'intro', 'before'), { pageId: 'reference', parent: null, position: 0 });
  });

  it('refuses what cannot be: into itself or under itself, into a link, a group below the top, no move at all', () => {
    assert.equal(moveFor(tree, 'guides', 'guides', 'inside'), null);
    assert.equal(moveFor(tree, 'guides', 'install', 'inside'), null);
    assert.equal(moveFor(tree, 'intro', 'status', 'inside'), null);
    assert.equal(moveFor(tree, 'reference', 'guides', 'inside'), null);
    assert.equal(moveFor(tree, 'reference', 'install', 'after'), null);
    assert.equal(moveFor(tree, 'intro', 'guides', 'before'), null, 'already there');
    assert.equal(moveFor(tree, 'install', 'deploy', 'before'), null, 'already there');
  });

  it('lists the document pages to link to, with their depth, looking into groups', () => {
    assert.deepEqual(documentsOf(tree).map(({ page, depth }) => `${depth}:${page.id}`), ['0:intro', '0:guides', '1:install', '1:deploy', '0:api']);
  });
});
