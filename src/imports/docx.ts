import type { ElementContent, Root as HastRoot } from 'hast';
import mammoth from 'mammoth';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { BadRequest } from '../errors.ts';
import { timeUp } from './limits.ts';
import { htmlToMarkdown, textOf } from './html.ts';
import { collectImages } from './images.ts';
import { titleFromName } from './markdown.ts';
import type { ImportEnvironment, SourceFile } from './source.ts';
import { extensionFor, type AssetCollector, type ImportedContent, type ImportedPage } from './types.ts';
import { openZip } from './zip.ts';

/**
 * A Word document (DOCX) through mammoth: DOCX → HTML → Markdown (html.ts). Each first-level heading starts
 * a page titled by it; what comes before the first one is a page titled by the document's name. Embedded
 * images become files of the space. The archive is checked by the same zip limits first (a DOCX is a zip),
 * and mammoth never reads files outside it.
 */
export async function importDocx(file: SourceFile, assets: AssetCollector, env: ImportEnvironment): Promise<ImportedContent> {
  const archive = await openZip(file.bytes, env.limits);
  if (!archive.files.some((entry) => entry.path === 'word/document.xml')) {
    throw new BadRequest('The source is a zip archive but not a Word document (it has no word/document.xml); import it with the "zip" source, or send a .docx file.');
  }
  let images = 0;
  let result: Awaited<ReturnType<typeof mammoth.convertToHtml>>;
  try {
    result = await mammoth.convertToHtml(
      { buffer: file.bytes },
      {
        externalFileAccess: false,
        convertImage: mammoth.images.imgElement(async (image) => {
          if (images >= env.limits.maxImages) return { src: '' };
          const key = `docx:image:${++images}`;
          await assets.add(key, `image-${images}.${extensionFor(image.contentType)}`, await image.readAsBuffer(), image.contentType);
          return { src: key };
        }),
      },
    );
  } catch (error) {
    if (error instanceof BadRequest) throw error;
    throw new BadRequest(`The Word document could not be read (${(error as Error).message}).`);
  }
  if (env.signal.aborted) throw timeUp(env.limits);

  const tree = unified().use(rehypeParse, { fragment: true }).parse(result.value) as HastRoot;
  const sections: Array<{ title?: string; nodes: ElementContent[] }> = [{ nodes: [] }];
  for (const node of tree.children) {
    if (node.type === 'element' && node.tagName === 'h1') sections.push({ title: textOf(node).trim() || 'Untitled', nodes: [] });
    else if (node.type !== 'doctype') sections[sections.length - 1].nodes.push(node as ElementContent);
  }
  const documentTitle = file.name ? titleFromName(file.name) : 'Imported document';
  const pages: ImportedPage[] = [];
  const found: string[] = [];
  for (const [index, section] of sections.entries()) {
    const converted = await htmlToMarkdown(section.nodes, undefined);
    if (section.title === undefined && !converted.markdown.trim()) continue;
    found.push(...converted.images.filter((src) => src.startsWith('data:')));
    pages.push({ key: `docx:${index}`, type: 'document', title: (section.title ?? documentTitle).slice(0, 255), markdown: converted.markdown, pages: [] });
  }
  if (pages.length === 0) pages.push({ key: 'docx:0', type: 'document', title: documentTitle, markdown: '', pages: [] });
  const { skipped } = await collectImages(found, assets, env);
  return { pages, assets: assets.assets, skipped, resolve: (_from, reference) => (assets.has(reference) ? { key: reference } : undefined) };
}
