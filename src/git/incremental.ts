import { refuseNul } from '../http/text-rules.ts';
import type { Context } from '../context.ts';
import { storeBlob } from '../content/files.ts';
import type { PageFields } from '../content/nodes.ts';
import { reusableContentsOf } from '../content/reusable-contents.ts';
import type { RevisionTree } from '../content/tree.ts';
import { RevisionWriter } from '../content/writer.ts';
import { markdownPage } from '../imports/markdown.ts';
import { gitBlobOid } from '../imports/types.ts';
import { BlobReader, git } from './cli.ts';
import type { DocsLayout } from './files.ts';

/**
 * The fast path of a re-import: when the commits between the last synced one and the tip only modified
 * files that are already pages, reusable contents or files of the space (no file added, deleted or renamed,
 * SUMMARY.md and `.gitbook.yaml` untouched), only those are read, over the current content. Unchanged blobs
 * are never read, so a one-file push costs the same in a 5,000-page space as in a 50-page one. Anything else
 * answers null, and the whole commit is imported (src/git/lay.ts), which gives the same content.
 */
export async function incrementalImport(
  ctx: Pick<Context, 'db' | 'ids' | 'blobs' | 'clock'>,
  input: { gitDir: string; from: string; to: string; layout: DocsLayout; tree: RevisionTree; headRevisionId: string },
): Promise<RevisionWriter | null> {
  const { gitDir, layout, tree } = input;
  const known = await git(['cat-file', '-e', `${input.from}^{commit}`], { gitDir }).then(
    () => true,
    () => false,
  );
  if (!known) return null;
  const out = (await git(['diff-tree', '-r', '-z', '--no-renames', '--raw', input.from, input.to], { gitDir })).toString('utf8').split('\0');
  const changes: Array<{ path: string; oid: string }> = [];
  for (let i = 0; i + 1 < out.length; i += 2) {
    const [, , , oid, status] = out[i].replace(/^:/, '').split(' ');
    const path = out[i + 1];
    if (!layout.root || path.startsWith(`${layout.root}/`)) {
      if (status !== 'M') return null;
      changes.push({ path: layout.root ? path.slice(layout.root.length + 1) : path, oid });
    } else if (path === '.gitbook.yaml') return null;
  }
  const pages = new Map<string, { id: string; fields: PageFields }>();
  for (const page of tree.byId.values()) if (page.node.type === 'document' && page.file) pages.set(page.file, { id: page.node.id, fields: page.node });
  const contents = new Map(reusableContentsOf(tree).filter((item) => item.git?.path).map((item) => [item.git!.path, item]));
  const files = new Map(tree.root.files.filter((file) => file.git?.path).map((file) => [file.git!.path, file]));
  const summaryRead = tree.byId.size > 0 && [...pages.keys()].length > 0;
  for (const change of changes) {
    if (change.path === layout.summary || (!pages.has(change.path) && !contents.has(change.path) && !files.has(change.path))) return null;
  }
  if (!summaryRead) return null;

  const writer = await RevisionWriter.fromRevision(ctx, input.headRevisionId);
  const reader = new BlobReader(gitDir);
  try {
    // Whether titles come from SUMMARY.md (then a file's heading does not rename its page).
    const hasSummary = (await git(['cat-file', '-e', `${input.to}:${layout.root ? `${layout.root}/` : ''}${layout.summary}`], { gitDir }).then(() => true, () => false));
    for (const change of changes) {
      const bytes = await reader.read(change.oid);
      const page = pages.get(change.path);
      if (page) {
        const text = bytes.toString('utf8');
        refuseNul(text, `the file "${change.path}"`);
        const read = markdownPage(text, { key: change.path, name: change.path, fallbackTitle: page.fields.title, ...(hasSummary ? { title: page.fields.title } : {}) });
        const settings = read.settings ?? {};
        writer.updatePage(page.id, {
          title: read.title,
          description: settings.description,
          icon: settings.icon,
          emoji: settings.emoji ?? page.fields.emoji,
          hidden: settings.hidden,
          noIndex: settings.noIndex,
          layout: settings.layout,
          git: { path: change.path, oid: gitBlobOid(text) },
          markdown: read.markdown ?? null,
        });
        continue;
      }
      const content = contents.get(change.path);
      if (content) {
        const text = bytes.toString('utf8');
        refuseNul(text, `the file "${change.path}"`);
        const read = markdownPage(text, { key: change.path, name: change.path, fallbackTitle: content.title });
        writer.putReusableContent({ id: content.id, title: read.title, markdown: read.markdown ?? '', git: { path: change.path, oid: gitBlobOid(text) } });
        continue;
      }
      const file = files.get(change.path)!;
      const { blob: hash, size } = await storeBlob(ctx, bytes);
      writer.updateFile(file.id, { blob: hash, size, dimensions: undefined, git: { path: change.path, oid: change.oid } });
    }
    return writer;
  } finally {
    reader.close();
  }
}
