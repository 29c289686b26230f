import type { ContentRef } from '../nodes.ts';
import type { NewPage } from '../writer.ts';

/** A built-in template: starter pages, and named slots that `params.contentRefs` can fill. */
export interface Template {
  id: string;
  title: string;
  description: string;
  /** The content references the template accepts, by name, with the kinds each may be. */
  slots: Record<string, { kinds: string[]; description: string }>;
  pages(refs: Record<string, ContentRef>): NewPage[];
}
