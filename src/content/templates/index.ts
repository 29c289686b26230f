import { BadRequest } from '../../errors.ts';
import type { ContentRef } from '../nodes.ts';
import type { RevisionWriter } from '../writer.ts';
import { apiReference } from './api-reference.ts';
import { knowledgeBase } from './knowledge-base.ts';
import { productDocs } from './product-docs.ts';
import type { Template } from './types.ts';

export type { Template } from './types.ts';

/** The built-in templates, by id. */
export const TEMPLATES: ReadonlyMap<string, Template> = new Map([productDocs, apiReference, knowledgeBase].map((template) => [template.id, template]));

export function findTemplate(id: string): Template {
  const template = TEMPLATES.get(id);
  if (!template) {
    throw new BadRequest(`The body member "id" names no template: "${id}". The templates are: ${[...TEMPLATES.keys()].join(', ')}.`);
  }
  return template;
}

/**
 * Checks the content references given for a template's slots: each names a slot of the template, has a
 * kind that slot accepts, and (for a page or a file of this space) points at something that exists.
 */
export function checkContentRefs(template: Template, refs: Record<string, ContentRef>, writer: RevisionWriter): void {
  for (const [name, ref] of Object.entries(refs)) {
    const field = `params.contentRefs.${name}`;
    const slot = template.slots[name];
    if (!slot) {
      const names = Object.keys(template.slots);
      throw new BadRequest(`The body member "${field}" is not a slot of the template "${template.id}"; its slots are: ${names.join(', ') || 'none'}.`);
    }
    if (!slot.kinds.includes(ref.kind)) {
      throw new BadRequest(`The body member "${field}" must be a content reference of kind ${slot.kinds.map((k) => `"${k}"`).join(' or ')}, not "${ref.kind}".`);
    }
    if (ref.kind === 'page' && !ref.space && !writer.has(ref.page)) {
      throw new BadRequest(`The body member "${field}" points at the page "${ref.page}", which is not in this space.`);
    }
    if (ref.kind === 'file' && !writer.fileList().some((file) => file.id === ref.file)) {
      throw new BadRequest(`The body member "${field}" points at the file "${ref.file}", which is not in this space.`);
    }
  }
}

/**
 * Adds a template's pages after the existing top-level pages. Nothing existing is changed or removed: a
 * second application adds a second set of pages (their slugs made unique among siblings).
 */
export function applyTemplate(writer: RevisionWriter, template: Template, refs: Record<string, ContentRef> = {}): string[] {
  checkContentRefs(template, refs, writer);
  return template.pages(refs).map((page) => writer.addPage(page));
}
