import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { folderOfFile, linkResolverAt, pageFile, resolveLinkAt } from '../../src/content/links.ts';
import type { PageNode } from '../../src/content/nodes.ts';
import { buildTree, walkPages } from '../../src/content/tree.ts';

/**
 * linkResolverAt finds a plain file name of the link's folder ("topic-2.md") with one lookup; everything
 * else goes the general way (resolveLinkAt). The two must agree on every link, from every folder.
 */
function tree() {
  const nodes = new Map<string, PageNode>();
  const add = (node: Omit<PageNode, 'children'>, children: string[] = []): string => {
    const hash = `h-${node.id}`;
    nodes.set(hash, { ...node, children });
    return hash;
  };
  const root = {
    pages: [
      add({ id: 'home', type: 'document', title: 'README', slug: 'readme' }),
      add({ id: 'start', type: 'group', title: 'Getting started' }, [
        add({ id: 'overview', type: 'document', title: 'Overview' }),
        add({ id: 'quick', type: 'document', title: 'Quickstart', git: { path: 'getting-started/Quick Start.md' } as PageNode['git'] }),
        add({ id: 'upper', type: 'document', title: 'Upper', git: { path: 'getting-started/UPPER.MD' } as PageNode['git'] }),
        add({ id: 'under', type: 'document', title: 'Setup guide', slug: 'setup_guide' }),
      ]),
      add({ id: 'guides', type: 'document', title: 'Guides' }, [
        add({ id: 'config', type: 'document', title: 'Configuration' }, [add({ id: 'advanced', type: 'document', title: 'Advanced' })]),
        add({ id: 'dots', type: 'document', title: 'v1.2', slug: 'v1.2' }),
      ]),
      add({ id: 'faq', type: 'document', title: 'FAQ' }),
    ],
    files: [],
    reusableContents: [],
    variables: {},
  };
  return buildTree('root', root, nodes);
}

const URLS = [
  'overview.md', 'Overview.MD', 'OVERVIEW.md', 'overview', 'overview.md#', 'overview.md#intro', 'overview.md#a#b', 'overview.md?x=1',
  'overview.md?x=1#intro', 'overview.md#intro?x', './overview.md', './/overview.md', 'overview.md/', '/getting-started/overview.md',
  '../getting-started/overview.md', '../../overview.md', '..', '../', './', '.', '', '#intro', '//example.com/overview.md',
  'https://example.com/overview.md', 'mailto:a@example.com', 'Quick%20Start.md', 'Quick Start.md', 'quick start.md', 'quick%2Fstart.md',
  'quickstart.md', 'UPPER.MD', 'upper.md', 'setup_guide.md', 'setup_guide.md#run', 'README.md', 'readme.md', 'README', 'readme.md#top',
  'guides.md', 'guides/', 'guides/README.md', 'guides/readme.md', 'guides/configuration.md', 'configuration.md', 'configuration/README.md',
  'configuration/advanced.md#x', 'advanced.md', 'v1.2.md', '..md', '...md', '.md', 'faq.md', 'FAQ.md', 'missing.md', 'missing.md#x',
  '%E2%9C%93.md', '%.md', 'a%ZZ.md', 'faq.md#%20x',
];

describe('relative links', () => {
  const t = tree();
  const folders = new Set<string>(['', 'nowhere', 'getting-started', 'guides', 'guides/configuration']);
  for (const page of walkPages(t.pages)) folders.add(folderOfFile(pageFile(page)).join('/'));

  it('reads every link from every folder as the general reading does', () => {
    let pages = 0;
    for (const folder of folders) {
      const segments = folder === '' ? [] : folder.split('/');
      const resolve = linkResolverAt(t, segments);
      for (const url of URLS) {
        const ref = resolve(url);
        assert.deepEqual(ref, resolveLinkAt(t, segments, url), `${url} from /${folder}`);
        if (ref) pages++;
      }
    }
    assert.ok(pages > 50, `only ${pages} links found a page`);
  });

  it('finds pages by their file in the folder, with anchors, case and odd names', () => {
    const inStart = linkResolverAt(t, ['getting-started']);
    assert.deepEqual(inStart('overview.md'), { kind: 'page', page: 'overview' });
    assert.deepEqual(inStart('Overview.MD#Intro'), { kind: 'anchor', anchor: 'Intro', page: 'overview' });
    assert.deepEqual(inStart('overview.md#a#b'), { kind: 'anchor', anchor: 'a', page: 'overview' });
    assert.deepEqual(inStart('overview.md#'), { kind: 'page', page: 'overview' });
    assert.deepEqual(inStart('Quick%20Start.md'), { kind: 'page', page: 'quick' });
    assert.deepEqual(inStart('upper.md'), { kind: 'page', page: 'upper' });
    assert.deepEqual(inStart('setup_guide.md#run'), { kind: 'anchor', anchor: 'run', page: 'under' });
    assert.deepEqual(inStart('../guides/README.md'), { kind: 'page', page: 'guides' });
    assert.deepEqual(inStart('../README.md'), { kind: 'page', page: 'home' });
    assert.equal(inStart('missing.md'), undefined);
    const inGuides = linkResolverAt(t, ['guides']);
    assert.deepEqual(inGuides('v1.2.md'), { kind: 'page', page: 'dots' });
    assert.deepEqual(inGuides('configuration/README.md'), { kind: 'page', page: 'config' });
    assert.deepEqual(inGuides('./'), { kind: 'page', page: 'guides' });
  });
});
