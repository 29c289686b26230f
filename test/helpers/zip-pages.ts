import assert from 'node:assert/strict';
import type { Context } from '../../src/context.ts';
import { createSpace } from './content-factory.ts';
import type { Client } from './app.ts';
import { buildZip, dataUrl } from '../imports/helpers.ts';

/** A page of `GET …/content/pages`, as far as the page round-trip suites read it. */
export interface Page {
  id: string;
  title: string;
  type: string;
  pages?: Page[];
}

/** A new space of the organization with `files` imported as a zip through the API; its id. */
export async function importZipSpace(ctx: Context, organizationId: string, api: Client, files: Record<string, string | Buffer>): Promise<string> {
  const spaceId = await createSpace(ctx, organizationId);
  const zip = buildZip(Object.entries(files).map(([name, data]) => ({ name, data })));
  const reply = await api.post(`/v1/spaces/${spaceId}/content/import`, { source: 'zip', url: dataUrl('application/zip', zip) });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return spaceId;
}

const flatten = (pages: Page[]): Page[] => pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);

/** The document pages of a space, in tree order. */
export async function documentPages(api: Client, spaceId: string): Promise<Page[]> {
  const tree = (await api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as Page[];
  return flatten(tree).filter((page) => page.type === 'document');
}
