import { ALLOWED, type Container } from '../../src/content/markdown/nesting.ts';
import type { DocumentBlockType } from '../../src/content/markdown/index.ts';

/**
 * The client's document model (0.130.0) is stricter than the content GitBook itself writes and reads:
 * its containers list fewer children than GitBook's editor puts in them (code, images and tables in hints,
 * tables in tabs and steps, tabs in steps), its top level leaves out `if` and `columns` blocks (which its
 * `DocumentBlock` has), and it has no `updates` block yet. Quire keeps what GitBook writes; these patches
 * make the validators say the same, from the one table of what may nest where (src/content/markdown/nesting.ts).
 * Each is explained in docs/decisions/0003-client-document-errata.md.
 */
const SCHEMA_OF: Record<DocumentBlockType, string | null> = {
  paragraph: 'DocumentBlockParagraph',
  'heading-1': 'DocumentBlockHeading',
  'heading-2': 'DocumentBlockHeading',
  'heading-3': 'DocumentBlockHeading',
  'list-ordered': 'DocumentBlockListOrdered',
  'list-unordered': 'DocumentBlockListUnordered',
  'list-tasks': 'DocumentBlockListTasks',
  'list-item': 'DocumentBlockListItem',
  divider: 'DocumentBlockDivider',
  blockquote: 'DocumentBlockQuote',
  hint: 'DocumentBlockHint',
  images: 'DocumentBlockImages',
  image: 'DocumentBlockImage',
  file: 'DocumentBlockFile',
  drawing: 'DocumentBlockDrawing',
  embed: 'DocumentBlockEmbed',
  code: 'DocumentBlockCode',
  'code-line': 'DocumentBlockCodeLine',
  math: 'DocumentBlockMath',
  expandable: 'DocumentBlockExpandable',
  tabs: 'DocumentBlockTabs',
  'tabs-item': 'DocumentBlockTabsItem',
  table: 'DocumentBlockTable',
  swagger: 'DocumentBlockOpenAPI',
  'openapi-operation': 'DocumentBlockOpenAPIOperation',
  'openapi-schemas': 'DocumentBlockOpenAPISchemas',
  'openapi-webhook': 'DocumentBlockOpenAPIWebhook',
  'content-ref': 'DocumentBlockContentRef',
  integration: 'DocumentBlockIntegration',
  'reusable-content': 'DocumentBlockReusableContent',
  stepper: 'DocumentBlockStepper',
  'stepper-step': 'DocumentBlockStepperStep',
  columns: 'DocumentBlockColumns',
  column: 'DocumentBlockColumn',
  if: 'DocumentBlockIf',
  updates: 'QuireDocumentBlockUpdates',
  update: 'QuireDocumentBlockUpdate',
};

type Schema = Record<string, unknown>;

function childrenOf(container: Container): Schema {
  const names = [...new Set([...ALLOWED[container]].map((type) => SCHEMA_OF[type]).filter((name): name is string => name !== null))];
  return { type: 'array', items: { anyOf: names.map((name) => ({ $ref: `#/components/schemas/${name}` })) } };
}

const patched = new WeakSet<object>();

/** Patches the document schemas of the client's document in place (once per document object). */
export function applyDocumentErrata(schemas: Record<string, Schema>): void {
  if (patched.has(schemas)) return;
  patched.add(schemas);
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  schemas.QuireDocumentBlockUpdate = {
    type: 'object',
    properties: { object: { enum: ['block'] }, type: { enum: ['update'] }, key: { type: 'string' }, data: { type: 'object' }, nodes: childrenOf('update'), isVoid: { enum: [false] } },
    required: ['object', 'type', 'data', 'nodes'],
  };
  schemas.QuireDocumentBlockUpdates = {
    type: 'object',
    properties: { object: { enum: ['block'] }, type: { enum: ['updates'] }, key: { type: 'string' }, data: { type: 'object' }, nodes: { type: 'array', items: ref('QuireDocumentBlockUpdate') }, isVoid: { enum: [false] } },
    required: ['object', 'type', 'data', 'nodes'],
  };
  schemas.DocumentBlocksTopLevels = { anyOf: [...ALLOWED.document].map((type) => SCHEMA_OF[type]).filter((name, index, all): name is string => name !== null && all.indexOf(name) === index).map(ref) };
  const containers: Array<[string, Container]> = [
    ['DocumentBlockHint', 'hint'],
    ['DocumentBlockQuote', 'blockquote'],
    ['DocumentBlockListItem', 'list-item'],
    ['DocumentBlockTabsItem', 'tabs-item'],
    ['DocumentBlockStepperStep', 'stepper-step'],
    ['DocumentBlockColumn', 'column'],
    ['DocumentBlockIf', 'if'],
  ];
  for (const [name, container] of containers) {
    const schema = schemas[name] as { properties: Record<string, unknown> };
    schema.properties.nodes = childrenOf(container);
  }
  // The expandable's body fragment.
  const expandable = schemas.DocumentBlockExpandable as { properties: { fragments: { items: { oneOf: Array<{ allOf: Array<{ properties?: { fragment?: { enum?: string[] }; nodes?: unknown } }> }> } } } };
  for (const choice of expandable.properties.fragments.items.oneOf) {
    const own = choice.allOf.find((part) => part.properties?.fragment?.enum?.includes('expandable-body'));
    if (own?.properties) own.properties.nodes = { ...childrenOf('expandable-body'), minItems: 1 };
  }
  // `PlainObject` (an integration block's props) has no `type: object`, so every string or number also
  // matches it, and the `oneOf` of its values (PlainObject, string, boolean, number) fails for any primitive.
  (schemas.PlainObject as Schema).type = 'object';
  // A page edit's `attributes` is a `oneOf` of three objects (document, group, link) that all allow any
  // member and need only one: every attributes object matches all three, so no page_edited change could
  // validate. The choice is "any of them" (erratum 11 in docs/decisions/0003).
  const edited = schemas.RevisionSemanticChangePageEdited as { properties: { attributes: Schema & { oneOf?: unknown[]; anyOf?: unknown[] } } } | undefined;
  if (edited?.properties.attributes.oneOf) {
    edited.properties.attributes.anyOf = edited.properties.attributes.oneOf;
    delete edited.properties.attributes.oneOf;
  }
  // Hints, tabs and drawings GitBook writes with more than 0.130.0 lists: an icon, an alt text.
  for (const name of ['DocumentBlockHint', 'DocumentBlockDrawing']) {
    const data = (schemas[name] as { properties: { data: Schema } }).properties.data;
    delete data.additionalProperties;
  }
  // A spec version's `filesystem` is the array of files GitBook's own service returns and its renderer reads
  // (an entry point with its bundled description); the client's document types it an object (erratum 30).
  const content = schemas.OpenAPISpecContent as { properties: { filesystem: Schema } } | undefined;
  if (content) content.properties.filesystem = { type: 'array', items: { type: 'object', required: ['filename', 'isEntrypoint', 'specification'] } };
}
