import { Extension, type Editor } from '@tiptap/core';
import { api, type RevisionFile } from '../api/operations.ts';
import type { RevisionPage } from '../api/types.ts';

/** Where the page being edited lives: what the editor's pickers (pages, files, people, OpenAPI specs) list. */
export interface EditorPlace {
  spaceId: string;
  /** The change request the page is written in; absent when reading the space itself. */
  changeRequestId?: string;
}

/** One choice of a picker: what it shows and the value it gives. */
export interface Choice {
  label: string;
  value: string;
}

/**
 * The space's pages, files, members and OpenAPI operations as the pickers need them, read through the public
 * API once per editor (each list is kept while the editor lives; a file uploaded is added by the caller).
 */
export class PlaceData {
  private cache = new Map<string, Promise<unknown>>();

  constructor(readonly place: EditorPlace) {}

  private once<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (!this.cache.has(key)) this.cache.set(key, load().catch((error: unknown) => {
      this.cache.delete(key);
      throw error;
    }));
    return this.cache.get(key) as Promise<T>;
  }

  organizationId(): Promise<string> {
    return this.once('org', async () => (await api.space(this.place.spaceId)).organization);
  }

  async pages(): Promise<Choice[]> {
    const { spaceId, changeRequestId } = this.place;
    const revision = await this.once('content', () => (changeRequestId ? api.changeRequestContent(spaceId, changeRequestId) : api.spaceContent(spaceId)));
    const out: Choice[] = [];
    const walk = (pages: RevisionPage[], depth: number) => {
      for (const page of pages) {
        if (page.type !== 'group' && page.type !== 'link') out.push({ label: `${'  '.repeat(depth)}${page.title}`, value: page.id });
        walk(page.pages ?? [], depth + 1);
      }
    };
    walk(revision.pages, 0);
    return out;
  }

  async reusableContents(): Promise<Choice[]> {
    const { spaceId, changeRequestId } = this.place;
    const revision = (await this.once('content', () => (changeRequestId ? api.changeRequestContent(spaceId, changeRequestId) : api.spaceContent(spaceId)))) as { reusableContents?: Array<{ id: string; title?: string }> };
    return (revision.reusableContents ?? []).map((item) => ({ label: item.title || item.id, value: item.id }));
  }

  files(fresh = false): Promise<RevisionFile[]> {
    if (fresh) this.cache.delete('files');
    return this.once('files', async () => (await api.files(this.place.spaceId, this.place.changeRequestId)).items);
  }

  async members(): Promise<Choice[]> {
    const organizationId = await this.organizationId();
    const members = await this.once('members', () => api.members(organizationId));
    return members.items.map((member) => ({ label: member.user.displayName, value: member.user.id }));
  }

  async specs(): Promise<Choice[]> {
    const organizationId = await this.organizationId();
    const specs = await this.once('specs', () => api.openAPISpecs(organizationId));
    return specs.items.map((spec) => ({ label: spec.slug, value: spec.slug }));
  }

  /** The operations of a spec's latest version, as "METHOD path" choices (value `method path`). */
  async operations(slug: string): Promise<Choice[]> {
    const organizationId = await this.organizationId();
    const content = await this.once(`spec:${slug}`, () => api.openAPISpecContent(organizationId, slug));
    const entry = content.filesystem.find((file) => file.isEntrypoint) ?? content.filesystem[0];
    const paths = ((entry?.specification ?? {}) as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
    const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
    return Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item ?? {})
        .filter((method) => methods.includes(method))
        .map((method) => ({ label: `${method.toUpperCase()} ${path}`, value: `${method} ${path}` })),
    );
  }
}

/** The editor's place, kept in its storage (set by createPageEditor; absent in tests of the mapping). */
export const Place = Extension.create<{ place: EditorPlace | null }, { data: PlaceData | null }>({
  name: 'place',
  addOptions: () => ({ place: null }),
  addStorage() {
    return { data: this.options.place ? new PlaceData(this.options.place) : null };
  },
});

export function placeData(editor: Editor): PlaceData | null {
  return (editor.storage as unknown as { place?: { data: PlaceData | null } }).place?.data ?? null;
}
