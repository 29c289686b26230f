/**
 * JSON Schema (as @fastify/swagger writes Quire's route schemas into /openapi.json) → fast-check
 * arbitraries: values the schema accepts, values at its boundaries, and hostile values it must refuse.
 *
 * A string member whose name ends in `Id` (or an array member named like a pool, `spaces`, `users`) is
 * generated as a `PoolRef` placeholder most of the time, so bodies refer to real objects; the engine
 * replaces each placeholder with an id from the pools when it sends the request.
 */
import fc from 'fast-check';
import { buildZip } from '../../test/imports/helpers.ts';
import { DEFAULT_LIMITS } from '../../src/imports/limits.ts';

export type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  nullable?: boolean;
  default?: unknown;
};

/** A reference to a real object, resolved when the request is sent: `pool` is a path-parameter name. */
export interface PoolRef {
  $pool: string;
  pick: number;
}

export const isPoolRef = (value: unknown): value is PoolRef =>
  typeof value === 'object' && value !== null && '$pool' in value && typeof (value as PoolRef).$pool === 'string';

/** Strings that are valid text but hard: unicode edge cases a validator or a database may mishandle. */
export const UNICODE_EDGES = [
  '',
  ' ',
  '   ',
  '\t\n\r',
  'é', // precomposed
  'e\u0301', // combining
  '\u200b', // zero width space
  '\u200d👨‍👩‍👧', // joiners
  '\u202etxt.exe', // right-to-left override
  '\ufeffbom',
  '\ud800', // lone high surrogate
  '\udc00x', // lone low surrogate
  '𝕏𝕐ℤ',
  '🏳️‍🌈',
  'ﷺ',
  '\u0085\u2028\u2029', // next line, line and paragraph separators
  '\u007f\u009f', // DEL, C1 control
  'Ａｄｍｉｎ', // full width
  'İıß', // case folding
  '\uFFFF\uFFFE',
  '%s%n%x',
  '${7*7}{{7*7}}',
  "'; drop table spaces; --",
  '" or 1=1 --',
  '<script>alert(1)</script>',
  '../../../etc/passwd',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
];

/** Markdown that parsers find hard: deep nesting, many openers never closed, block tags left open. */
export const MARKDOWN_BOMBS = [
  '> '.repeat(3000) + 'quote',
  Array.from({ length: 500 }, (_, i) => '  '.repeat(i) + '- item').join('\n'),
  '*'.repeat(20000),
  '[a]('.repeat(5000),
  '<div>'.repeat(5000),
  '|a|b|\n|-|-|\n' + '|x|y|\n'.repeat(5000),
  '$$' + '\\frac{'.repeat(2000) + '$$',
  '{% hint style="info" %}\n'.repeat(2000),
  '{% tabs %}\n{% tab title="a" %}\n'.repeat(1000),
  '```\n'.repeat(3000),
  '# '.repeat(5000),
  '![x](' + 'a'.repeat(10000) + ')',
  '---\ntitle: [' + '['.repeat(3000) + '\n---\n',
  '&#x' + '0'.repeat(5000) + ';',
  '\\'.repeat(20000),
  '# Same\n\n'.repeat(2000),
  `# Late\n\n${'text\n'.repeat(2000)}x\u0000y`,
  // Comment bodies that held the event loop for seconds when comments were read on it (issue 24).
  '```\n' + 'code line\n'.repeat(1_990),
  '[a](http://x) '.repeat(1_420),
  '*a '.repeat(3_300) + 'x' + ' a*'.repeat(3_300),
  '# Same\n\n'.repeat(2_500),
];

const dataUrl = (type: string, content: Buffer | string) => `data:${type};base64,${Buffer.from(content).toString('base64')}`;
const manyRedirects = (count: number) => `redirects:\n${Array.from({ length: count }, (_, i) => `  r${i}: README.md`).join('\n')}\n`;
// Each entry names a file of its own (decision 0111: a path named twice is one page and links to it).
const bigSummary = (entries: number) => `# Summary\n\n${Array.from({ length: entries }, (_, i) => `* [P${i}](p${i}.md)`).join('\n')}\n`;
const pagesOf = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `p${i}.md`, data: `# P${i}\n` }));

/**
 * Sources that have stalled or broken the server, for members named `url` (imports take data: URLs): a NUL
 * late in Markdown, HTML and an archive entry, 20,000 identical headings, an archive of 500 pages of 1 MB,
 * `.gitbook.yaml` with 10,000, 20,000 and 100,000 redirects, a SUMMARY.md of 50,000 entries each naming its own file
 * (the archive carries the first 9,999 of them, the most it may hold beside SUMMARY.md; the other entries are
 * pages without a file). Built once, when first asked for.
 */
let hostileSources: string[] | undefined;
export function hostileSourceUrls(): string[] {
  hostileSources ??= [
    dataUrl('text/markdown', `# Page\n\n${'Some text of the page.\n'.repeat(400)}x\u0000y\n`),
    dataUrl('text/html', `<html><body><p>${'Some text of the page. '.repeat(400)}x\u0000y</p></body></html>`),
    dataUrl('text/markdown', '# Same\n\n'.repeat(20_000)),
    dataUrl('application/zip', buildZip([{ name: 'README.md', data: '# Top\n' }, { name: 'late.md', data: `# Late\n\n${'text\n'.repeat(3000)}x\u0000y\n` }])),
    dataUrl('application/zip', buildZip(Array.from({ length: 500 }, (_, i) => ({ name: `page-${i}.md`, data: Buffer.alloc(1_000_000, 'a') })))),
    dataUrl('application/zip', buildZip([{ name: '.gitbook.yaml', data: manyRedirects(20_000) }, { name: 'README.md', data: '# Top\n' }])),
    dataUrl('application/zip', buildZip([{ name: 'SUMMARY.md', data: bigSummary(50_000) }, ...pagesOf(DEFAULT_LIMITS.maxEntries - 1)])),
    // The most redirects Quire takes, and ten times more (refused, saying why).
    dataUrl('application/zip', buildZip([{ name: '.gitbook.yaml', data: manyRedirects(10_000) }, { name: 'README.md', data: '# Top\n' }])),
    dataUrl('application/zip', buildZip([{ name: '.gitbook.yaml', data: manyRedirects(100_000) }, { name: 'README.md', data: '# Top\n' }])),
  ];
  return hostileSources;
}

/** C0 control characters (the text rules refuse all but tab, line feed and carriage return). */
export const CONTROL_STRINGS = ['a\u0000b', '\u0000', 'x\u001by', '\u0007', 'a\u000bb', '\u001f'];

export class SchemaArbitraries {
  constructor(
    private readonly components: Record<string, JsonSchema>,
    /** Names of the pools of real ids (path-parameter names such as `spaceId`). */
    private readonly pools: Set<string>,
  ) {}

  resolve(schema: JsonSchema): JsonSchema {
    let current = schema;
    for (let i = 0; i < 20 && current.$ref; i++) {
      const name = current.$ref.replace('#/components/schemas/', '');
      current = this.components[name] ?? {};
    }
    return current;
  }

  /** A pool whose ids fit a member of this name, if any. */
  poolFor(name: string | undefined): string | undefined {
    if (!name) return undefined;
    if (this.pools.has(name)) return name;
    const singular = name.replace(/s$/, '') + 'Id';
    if (this.pools.has(singular)) return singular;
    if (name === 'parent' || name === 'parentId') return 'pageId';
    if (name === 'user' || name === 'users') return 'userId';
    return undefined;
  }

  /** Values the schema accepts (mostly), biased towards its boundaries. */
  valid(input: JsonSchema, name?: string, depth = 0, minimal = false): fc.Arbitrary<unknown> {
    const schema = this.resolve(input);
    if (depth > 6) return fc.constant(schema.default ?? null);
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (schema.enum) return fc.constantFrom(...schema.enum);
    const union = schema.anyOf ?? schema.oneOf;
    if (union && union.length > 0) return fc.oneof(...union.map((s) => this.valid(s, name, depth + 1, minimal)));
    if (schema.allOf && schema.allOf.length > 0) return this.valid(this.merge(schema.allOf), name, depth + 1, minimal);
    const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : this.guessTypes(schema);
    if (types.length > 1) return fc.oneof(...types.map((type) => this.valid({ ...schema, type }, name, depth + 1, minimal)));
    switch (types[0]) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
      case 'number':
        return this.number(schema, types[0] === 'integer');
      case 'string':
        return this.string(schema, name);
      case 'array':
        return this.array(schema, name, depth, minimal);
      case 'object':
        return this.object(schema, depth, minimal);
      default:
        return fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
    }
  }

  private guessTypes(schema: JsonSchema): string[] {
    if (schema.properties) return ['object'];
    if (schema.items) return ['array'];
    return [];
  }

  private merge(schemas: JsonSchema[]): JsonSchema {
    const merged: JsonSchema = { type: 'object', properties: {}, required: [] };
    for (const part of schemas.map((s) => this.resolve(s))) {
      if (part.type && part.type !== 'object') return part;
      Object.assign(merged.properties!, part.properties ?? {});
      merged.required!.push(...(part.required ?? []));
      if (part.additionalProperties === false) merged.additionalProperties = false;
    }
    return merged;
  }

  private number(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
    const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
    const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : undefined);
    const lo = min ?? -1_000_000;
    const hi = max ?? 1_000_000;
    const boundaries = [lo, hi, min ?? 0, 0, 1].filter((n) => n >= lo && n <= hi);
    // Where the schema sets no bound, the bounds of the databases' columns: 32-bit integers, doubles.
    const unbounded = [2 ** 31, -(2 ** 31) - 1, 2 ** 53 - 1, -(2 ** 53 - 1), ...(integer ? [] : [1e308, -1e308, 5e-324, 0.1 + 0.2])].filter(
      (n) => (min === undefined || n >= min) && (max === undefined || n <= max) && (min === undefined || max === undefined),
    );
    const core = integer ? fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) }) : fc.double({ min: lo, max: hi, noNaN: true });
    return fc.oneof(
      { weight: 3, arbitrary: core },
      { weight: 1, arbitrary: fc.constantFrom(...boundaries) },
      ...(unbounded.length > 0 ? [{ weight: 1, arbitrary: fc.constantFrom(...unbounded) }] : []),
    );
  }

  private string(schema: JsonSchema, name?: string): fc.Arbitrary<unknown> {
    const pool = this.poolFor(name);
    if (pool) return fc.oneof({ weight: 4, arbitrary: poolRef(pool) }, { weight: 1, arbitrary: this.plainString(schema, name) });
    return this.plainString(schema, name);
  }

  private plainString(schema: JsonSchema, name?: string): fc.Arbitrary<string> {
    const minLength = schema.minLength ?? 0;
    const maxLength = Math.min(schema.maxLength ?? 64, 4096);
    switch (schema.format) {
      case 'date-time':
        return fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
      case 'date':
        return fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      case 'email':
        return fc.emailAddress();
      case 'uri':
      case 'url':
        return fc.oneof(fc.webUrl(), fc.constantFrom('http://127.0.0.1:1/x', 'https://example.com/a?b=c#d', 'http://[::1]/', 'file:///etc/passwd'));
      case 'uuid':
        return fc.uuid();
      default:
        break;
    }
    if (schema.pattern) {
      try {
        const pattern = new RegExp(schema.pattern, 'u');
        return fc.stringMatching(pattern).filter((s) => s.length >= minLength && s.length <= Math.max(maxLength, minLength));
      } catch {
        // A pattern fast-check cannot generate from: plain strings below.
      }
    }
    const bounded = fc.string({ minLength, maxLength: Math.max(minLength, maxLength), unit: 'grapheme' });
    const edges = [
      'a'.repeat(Math.max(minLength, 1)),
      'b'.repeat(Math.max(minLength, Math.min(schema.maxLength ?? 64, 100_000))),
      ...UNICODE_EDGES.filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity)),
      // Long text members (Markdown bodies, descriptions) also get Markdown that is hard to parse.
      ...((schema.maxLength ?? Infinity) >= 5000 ? MARKDOWN_BOMBS.filter((s) => s.length <= (schema.maxLength ?? Infinity)) : []),
    ];
    const arbitraries = [{ weight: 4, arbitrary: bounded }, { weight: 2, arbitrary: fc.constantFrom(...edges) }];
    // A source URL (imports, Git remotes) sometimes carries one of the documents that stalled the server.
    if (name === 'url' && (schema.maxLength ?? Infinity) >= 1_000_000) arbitraries.push({ weight: 1, arbitrary: fc.constantFrom(...hostileSourceUrls()) });
    return fc.oneof(...arbitraries);
  }

  private array(schema: JsonSchema, name: string | undefined, depth: number, minimal: boolean): fc.Arbitrary<unknown[]> {
    const items = schema.items ?? {};
    const singular = name?.replace(/s$/, '');
    const minLength = schema.minItems ?? 0;
    return fc.array(this.valid(items, singular, depth + 1, minimal), { minLength, maxLength: minimal ? minLength : Math.min(schema.maxItems ?? 4, 6) });
  }

  /** An object of the schema; `minimal`: with its required members only (what a create most likely takes). */
  private object(schema: JsonSchema, depth: number, minimal: boolean): fc.Arbitrary<Record<string, unknown>> {
    const properties = schema.properties ?? {};
    const required = new Set(schema.required ?? []);
    const record: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [key, child] of Object.entries(properties)) if (!minimal || required.has(key)) record[key] = this.valid(child, key, depth + 1, minimal);
    if (minimal && required.size === 0 && Object.keys(properties).length > 0) {
      // Nothing required: most such bodies (a patch, `{ markdown } or { document }`) want one member.
      return fc.constantFrom(...Object.keys(properties)).chain((key) => this.valid(properties[key]!, key, depth + 1, minimal).map((value) => ({ [key]: value })));
    }
    if (Object.keys(record).length === 0) {
      if (minimal) return fc.constant({});
      return schema.additionalProperties && schema.additionalProperties !== true
        ? fc.dictionary(fc.string({ maxLength: 12 }), this.valid(schema.additionalProperties, undefined, depth + 1), { maxKeys: 3 })
        : fc.constant({});
    }
    return fc.record(record, { requiredKeys: [...required].filter((k) => k in record) });
  }

  /** A value of a type the schema does not take, or a string the text rules must refuse. */
  wrongType(input: JsonSchema): fc.Arbitrary<unknown> {
    const schema = this.resolve(input);
    const types = new Set(Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);
    const candidates: unknown[] = [];
    if (!types.has('string')) candidates.push('text', '', '12');
    if (!types.has('number') && !types.has('integer')) candidates.push(0, -1, 1.5, 1e308, -0);
    if (!types.has('boolean')) candidates.push(true, false);
    if (!types.has('null')) candidates.push(null);
    if (!types.has('array')) candidates.push([], [1, 'a', null]);
    if (!types.has('object')) candidates.push({}, { a: 1 });
    return fc.oneof(fc.constantFrom(...candidates), fc.constantFrom(...CONTROL_STRINGS));
  }

  /** A hostile version of a valid object body: a member missing, one extra, one of a wrong type, one huge. */
  hostileObject(input: JsonSchema): fc.Arbitrary<unknown> {
    const schema = this.resolve(input);
    const valid = this.valid(schema);
    const keys = Object.keys(schema.properties ?? {});
    const mutations: Array<fc.Arbitrary<unknown>> = [
      // An extra member, sometimes with a hostile name.
      fc.tuple(valid, fc.constantFrom('extra', '__proto__', 'constructor', 'a\u0000b', '', '$where', 'id'), fc.jsonValue({ maxDepth: 2 })).map(([body, key, value]) =>
        isPlainObject(body) ? { ...body, [key]: value } : body,
      ),
      // The whole body of another shape.
      fc.constantFrom<unknown>(null, [], [{}], 'text', 42, true, {}),
      // Deep nesting in a body.
      fc.integer({ min: 50, max: 5000 }).map((depth) => nest(depth)),
    ];
    if (keys.length > 0) {
      const key = fc.constantFrom(...keys);
      mutations.push(
        // A member left out (often a required one).
        fc.tuple(valid, key).map(([body, k]) => (isPlainObject(body) ? omit(body, k) : body)),
        // A member of a wrong type.
        key.chain((k) => fc.tuple(valid, this.wrongType(schema.properties![k]!)).map(([body, v]) => (isPlainObject(body) ? { ...body, [k]: v } : body))),
        // A member holding a huge, empty, control or unicode edge string.
        fc.tuple(valid, key, fc.oneof(fc.constantFrom(...UNICODE_EDGES, ...CONTROL_STRINGS), fc.constantFrom(...MARKDOWN_BOMBS), fc.integer({ min: 1000, max: 300_000 }).map((n) => hugeString(n)))).map(([body, k, v]) =>
          isPlainObject(body) ? { ...body, [k]: v } : body,
        ),
        // A member holding a deeply nested value.
        fc.tuple(valid, key, fc.integer({ min: 20, max: 3000 })).map(([body, k, depth]) => (isPlainObject(body) ? { ...body, [k]: nest(depth) } : body)),
      );
    }
    return fc.oneof(...mutations);
  }
}

export const poolRef = (pool: string): fc.Arbitrary<PoolRef> => fc.nat({ max: 1_000_000 }).map((pick) => ({ $pool: pool, pick }));

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function omit(body: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = { ...body };
  delete copy[key];
  return copy;
}

/**
 * A placeholder for a value nested `depth` levels deep (`[{"a":[…]}]`): too deep to build as an object and
 * stringify, it is written out as text by `deepJson` when the request is sent.
 */
export function nest(depth: number): { $deep: number } {
  return { $deep: depth };
}

/** The JSON text of a value nested `depth` levels: arrays and objects in turn. */
export function deepJson(depth: number): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    if (i % 3 === 0) {
      open += '[';
      close = ']' + close;
    } else {
      open += '{"a":';
      close = '}' + close;
    }
  }
  return open + (depth % 2 === 0 ? '[]' : '{}') + close;
}

export function hugeString(length: number): string {
  return 'Ω'.repeat(Math.floor(length / 2)) + 'x'.repeat(length - Math.floor(length / 2));
}
