/**
 * The blocks GitBook writes as tags beyond the classic ones: steppers, columns, `if` blocks, updates,
 * OpenAPI blocks, includes of reusable content, legacy page references and integration blocks. Each
 * function returns undefined when the tag cannot be honoured; parse-containers.ts then reads its content
 * as ordinary blocks, so nothing is lost and no tag shows as text.
 */
import type { ParseContext } from './context.ts';
import { convertItems } from './parse-blocks.ts';
import type { GroupedItem, TagGroup } from './parse-groups.ts';
import { lengthOf } from './lengths.ts';
import { wrapAllowed, type Container } from './nesting.ts';
import { fileIdOf, linkRefOf, reusableContentRefOf } from './refs.ts';
import type { VoidMarker } from './tags.ts';
import type {
  DocumentBlock,
  DocumentBlockColumn,
  DocumentBlockStepperStep,
  DocumentBlockUpdate,
  JsonValue,
} from './types.ts';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

function isGroup(item: GroupedItem, name: string): item is TagGroup {
  return 'kind' in item && item.kind === 'group' && item.open.name === name;
}

/**
 * The parts of a container whose children are all of one tag (`{% step %}` in a stepper): undefined when
 * anything but blank space sits between them.
 */
function partsOf(group: TagGroup, name: string): TagGroup[] | undefined {
  const parts = group.items.filter((item): item is TagGroup => isGroup(item, name));
  return parts.length === group.items.length ? parts : undefined;
}

function converted<T extends DocumentBlock>(container: Container, items: GroupedItem[], ctx: ParseContext, make: (nodes: DocumentBlock[]) => T): T {
  // Rich containers hold every block GitBook writes in them (see nesting.ts): the result is one block.
  return wrapAllowed(container, convertItems(items, ctx, container), make)[0] as T;
}

export function convertStepper(group: TagGroup, ctx: ParseContext): DocumentBlock[] | undefined {
  const steps = partsOf(group, 'step');
  if (!steps || Object.keys(group.open.attrs).length > 0) return undefined;
  const nodes = steps.map((step) =>
    converted('stepper-step', step.items, ctx, (children): DocumentBlockStepperStep => ({
      object: 'block',
      type: 'stepper-step',
      data: step.open.attrs.icon ? { icon: step.open.attrs.icon } : {},
      nodes: children,
    })),
  );
  return [{ object: 'block', type: 'stepper', data: {}, nodes }];
}

export function convertColumns(group: TagGroup, ctx: ParseContext): DocumentBlock[] | undefined {
  const columns = partsOf(group, 'column');
  if (!columns) return undefined;
  const nodes = columns.map((column) => {
    const width = lengthOf(column.open.attrs.width);
    return converted('column', column.items, ctx, (children): DocumentBlockColumn => ({
      object: 'block',
      type: 'column',
      data: width === undefined ? {} : { width },
      nodes: children,
      isVoid: false,
    }));
  });
  const data = group.open.attrs.fullWidth === 'true' ? { fullWidth: true } : {};
  return [{ object: 'block', type: 'columns', data, nodes, isVoid: false }];
}

export function convertIf(group: TagGroup, ctx: ParseContext): DocumentBlock[] | undefined {
  const expression = group.open.argument;
  if (!expression) return undefined;
  return [converted('if', group.items, ctx, (nodes) => ({ object: 'block', type: 'if', data: { expression }, nodes }))];
}

export function convertUpdates(group: TagGroup, ctx: ParseContext): DocumentBlock[] | undefined {
  const updates = partsOf(group, 'update');
  if (!updates) return undefined;
  const nodes = updates.map((update) => {
    const { date, tags, title } = update.open.attrs;
    const data: DocumentBlockUpdate['data'] = {};
    if (date !== undefined) data.date = date;
    if (tags !== undefined) data.tags = tags.split(',').map((tag) => tag.trim()).filter(Boolean);
    if (title !== undefined) data.title = title;
    return converted('update', update.items, ctx, (children): DocumentBlockUpdate => ({ object: 'block', type: 'update', data, nodes: children, isVoid: false }));
  });
  const data = group.open.attrs.format === undefined ? {} : { format: group.open.attrs.format };
  return [{ object: 'block', type: 'updates', data, nodes, isVoid: false }];
}

/** `{% openapi src path method %}` and `{% swagger src path method %}`: an operation of a description by URL or file. */
export function convertSwagger(group: TagGroup, ctx: ParseContext): DocumentBlock[] | undefined {
  const { src, path, method, expanded, fullWidth } = group.open.attrs;
  if (!src || !path || !method || !METHODS.has(method.toLowerCase())) return undefined;
  const file = fileIdOf(src, ctx.options);
  const data: Extract<DocumentBlock, { type: 'swagger' }>['data'] = { ref: file === undefined ? { kind: 'url', url: src } : { kind: 'file', file }, path, method: method.toLowerCase() };
  if (expanded === 'true' || expanded === 'false') data.expanded = expanded === 'true';
  if (fullWidth === 'true' || fullWidth === 'false') data.fullWidth = fullWidth === 'true';
  return [{ object: 'block', type: 'swagger', data, isVoid: true }];
}

export function convertOpenApiBlock(group: TagGroup): DocumentBlock[] | undefined {
  const { spec, path, method, schemas, grouped, name } = group.open.attrs;
  if (!spec) return undefined;
  const ref = { kind: 'openapi' as const, spec };
  switch (group.open.name) {
    case 'openapi-operation':
      if (!path || !method || !METHODS.has(method.toLowerCase())) return undefined;
      return [{ object: 'block', type: 'openapi-operation', data: { ref, path, method: method.toLowerCase() }, isVoid: true }];
    case 'openapi-schemas': {
      if (schemas === undefined) return undefined;
      const list = schemas.split(',').map((schema) => schema.trim()).filter(Boolean);
      const data: Extract<DocumentBlock, { type: 'openapi-schemas' }>['data'] = { ref, schemas: list };
      if (grouped === 'true' || grouped === 'false') data.grouped = grouped === 'true';
      return [{ object: 'block', type: 'openapi-schemas', data, isVoid: true }];
    }
    case 'openapi-webhook':
      if (!name || !method) return undefined;
      return [{ object: 'block', type: 'openapi-webhook', data: { ref, name, method: method.toLowerCase() }, isVoid: true }];
    default:
      return undefined;
  }
}

/**
 * A tag that stands alone: `{% include "…" %}` is reusable content, `{% page-ref page="…" %}` (GitBook's
 * older content reference) a content reference, `{% @integration/block … %}` an integration block. Tags
 * of other tools give nothing to show.
 */
export function convertVoid(marker: VoidMarker, ctx: ParseContext): DocumentBlock[] {
  if (marker.name === 'include' && marker.argument) {
    return [{ object: 'block', type: 'reusable-content', data: { ref: reusableContentRefOf(marker.argument, ctx.options) }, isVoid: true }];
  }
  if (marker.name === 'page-ref' && marker.attrs.page) {
    return [{ object: 'block', type: 'content-ref', data: { ref: linkRefOf(marker.attrs.page, ctx.options) }, isVoid: true }];
  }
  const integration = /^@([\w.-]+)\/([\w./-]+)$/.exec(marker.name);
  if (integration) {
    const props: Record<string, JsonValue> = { ...marker.attrs };
    return [{ object: 'block', type: 'integration', data: { integration: integration[1], block: integration[2], props }, isVoid: true }];
  }
  return [];
}
