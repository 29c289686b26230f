/**
 * Schemas of an OpenAPI description as HTML for the published reader: every property with its type,
 * constraints, default, example and description; nested objects and arrays as `<details>` that open to any
 * depth without JavaScript. `$ref` cycles stop at the schema that repeats (named, not expanded again), and a
 * budget bounds the HTML of one operation for descriptions with very large schemas.
 */
import { escapeHtml } from './render/index.ts';

export type Json = Record<string, unknown>;

/** The description a reference is resolved in (an OpenAPI 3.1 document, upgraded from 2.0/3.0). */
export interface SpecDocument {
  doc: Json;
  /** Markdown (CommonMark with GitBook's blocks) to safe HTML. */
  markdown(text: string): string;
}

export function isObject(value: unknown): value is Json {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}

/** Whether a description asks to hide this part from readers. */
export function isHidden(node: unknown): boolean {
  return isObject(node) && (node['x-internal'] === true || node['x-gitbook-ignore'] === true);
}

function pointer(doc: Json, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = doc;
  for (const raw of decodeURIComponent(ref.slice(1)).split('/').slice(1)) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Json)[token];
  }
  return node;
}

/** Follows `$ref`s (a chain of them) to the object they name; the name of the last one, for display. */
export function deref(spec: SpecDocument, node: unknown, depth = 0): { value: Json; ref: string | null } {
  if (isObject(node) && typeof node.$ref === 'string' && depth < 20) {
    const target = pointer(spec.doc, node.$ref);
    if (isObject(target)) {
      const inner = deref(spec, target, depth + 1);
      return { value: inner.value, ref: inner.ref ?? node.$ref };
    }
    return { value: {}, ref: node.$ref };
  }
  return { value: isObject(node) ? node : {}, ref: null };
}

export const refName = (ref: string) => decodeURIComponent(ref.split('/').pop() ?? ref).replace(/~1/g, '/').replace(/~0/g, '~');

/** A short type label: `string · date-time`, `array of Pet`, `integer | null`. */
export function typeLabel(spec: SpecDocument, raw: unknown): string {
  const { value: schema, ref } = deref(spec, raw);
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
  if (schema.nullable === true && !types.includes('null')) types.push('null');
  let label: string;
  if (types.includes('array') || (types.length === 0 && schema.items)) {
    label = `array of ${typeLabel(spec, schema.items)}`;
    const rest = types.filter((t) => t !== 'array');
    if (rest.length) label += ` | ${rest.join(' | ')}`;
  } else if (types.length) {
    label = types.join(' | ');
    if (ref && types.includes('object')) label = refName(ref);
  } else if (schema.oneOf || schema.anyOf) {
    label = ((schema.oneOf ?? schema.anyOf) as unknown[]).map((s) => typeLabel(spec, s)).join(' | ');
  } else if (schema.allOf || schema.properties) {
    label = ref ? refName(ref) : 'object';
  } else if (ref) {
    label = refName(ref);
  } else label = 'any';
  if (typeof schema.format === 'string') label += ` · ${schema.format}`;
  return label;
}

/** The constraints of a schema as short phrases: `≤ 100`, `pattern ^a`, `3 to 20 characters`. */
export function constraints(schema: Json): string[] {
  const out: string[] = [];
  if (schema.minimum !== undefined) out.push(`≥ ${schema.minimum}`);
  if (typeof schema.exclusiveMinimum === 'number') out.push(`> ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined) out.push(`≤ ${schema.maximum}`);
  if (typeof schema.exclusiveMaximum === 'number') out.push(`< ${schema.exclusiveMaximum}`);
  if (schema.minLength !== undefined || schema.maxLength !== undefined) out.push(`${schema.minLength ?? 0} to ${schema.maxLength ?? '∞'} characters`);
  if (schema.minItems !== undefined || schema.maxItems !== undefined) out.push(`${schema.minItems ?? 0} to ${schema.maxItems ?? '∞'} items`);
  if (schema.uniqueItems === true) out.push('unique items');
  if (typeof schema.pattern === 'string') out.push(`pattern ${schema.pattern}`);
  if (typeof schema.multipleOf === 'number') out.push(`multiple of ${schema.multipleOf}`);
  if (schema.readOnly === true) out.push('read-only');
  if (schema.writeOnly === true) out.push('write-only');
  return out;
}

const literal = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Enum values (with `x-enumDescriptions`), default and example of a schema, as HTML. */
export function valueFacts(spec: SpecDocument, schema: Json, example?: unknown): string {
  const parts: string[] = [];
  const facts = constraints(schema);
  if (facts.length) parts.push(`<span class="openapi-constraints">${facts.map(escapeHtml).join(' · ')}</span>`);
  if (Array.isArray(schema.enum)) {
    const notes = isObject(schema['x-enumDescriptions']) ? (schema['x-enumDescriptions'] as Json) : {};
    const items = schema.enum.map((v) => {
      const note = notes[String(v)];
      return `<li><code>${escapeHtml(literal(v))}</code>${typeof note === 'string' ? ` ${spec.markdown(note)}` : ''}</li>`;
    });
    parts.push(`<div class="openapi-enum">Possible values: <ul>${items.join('')}</ul></div>`);
  }
  if (schema.default !== undefined) parts.push(`<span class="openapi-default">Default: <code>${escapeHtml(literal(schema.default))}</code></span>`);
  const shown = example ?? schema.example ?? (Array.isArray(schema.examples) ? schema.examples[0] : undefined);
  if (shown !== undefined) parts.push(`<span class="openapi-example">Example: <code>${escapeHtml(literal(shown))}</code></span>`);
  return parts.join(' ');
}

/** Bounds the HTML of one rendering (a huge description must not make a huge page). */
export class Budget {
  constructor(public left: number) {}
  take(): boolean {
    return this.left-- > 0;
  }
}

interface Walk {
  spec: SpecDocument;
  stack: string[];
  budget: Budget;
  /** 'read' hides writeOnly properties (responses); 'write' hides readOnly ones (request bodies). */
  mode: 'read' | 'write';
}

/** The properties of an object schema, `allOf` merged. */
function merged(walk: Walk, schema: Json, seen = new Set<string>()): { properties: Json; required: Set<string>; additional: unknown } {
  const properties: Json = {};
  const required = new Set<string>();
  let additional: unknown;
  for (const part of (schema.allOf as unknown[] | undefined) ?? []) {
    const { value, ref } = deref(walk.spec, part);
    if (ref && seen.has(ref)) continue;
    if (ref) seen.add(ref);
    const inner = merged(walk, value, seen);
    Object.assign(properties, inner.properties);
    inner.required.forEach((r) => required.add(r));
    additional ??= inner.additional;
  }
  Object.assign(properties, isObject(schema.properties) ? schema.properties : {});
  for (const name of Array.isArray(schema.required) ? schema.required : []) required.add(String(name));
  return { properties, required, additional: additional ?? schema.additionalProperties };
}

function children(walk: Walk, raw: unknown, out: string[]): void {
  const { value: schema, ref } = deref(walk.spec, raw);
  if (ref && walk.stack.includes(ref)) {
    out.push(`<p class="openapi-recursive">${escapeHtml(refName(ref))} (recursive: see above)</p>`);
    return;
  }
  if (ref) walk.stack.push(ref);
  try {
    const items = schema.items ?? (schema.type === 'array' ? {} : undefined);
    if (items !== undefined && !schema.properties && !schema.allOf) return children(walk, items, out);
    const alternatives = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
    if (Array.isArray(alternatives)) {
      out.push(`<div class="openapi-alternatives"><p>${schema.oneOf ? 'One of' : 'Any of'}:</p>`);
      alternatives.forEach((alt, i) => {
        if (!walk.budget.take()) return;
        const title = deref(walk.spec, alt).value.title;
        out.push(`<details class="openapi-alternative"><summary>${escapeHtml(typeof title === 'string' ? title : `Option ${i + 1}`)} <span class="openapi-type">${escapeHtml(typeLabel(walk.spec, alt))}</span></summary>`);
        children(walk, alt, out);
        out.push('</details>');
      });
      out.push('</div>');
    }
    const { properties, required, additional } = merged(walk, schema);
    const names = Object.keys(properties);
    if (names.length) {
      out.push('<ul class="openapi-properties">');
      for (const name of names) {
        if (!walk.budget.take()) {
          out.push('<li class="openapi-more">…</li>');
          break;
        }
        property(walk, name, properties[name], required.has(name), out);
      }
      out.push('</ul>');
    }
    if (isObject(additional) && Object.keys(additional).length) {
      out.push(`<p class="openapi-additional">Other properties: <span class="openapi-type">${escapeHtml(typeLabel(walk.spec, additional))}</span></p>`);
    }
  } finally {
    if (ref) walk.stack.pop();
  }
}

function hasChildren(spec: SpecDocument, raw: unknown, depth = 0): boolean {
  const { value } = deref(spec, raw);
  if (depth > 5) return false;
  if (value.properties || value.allOf || value.oneOf || value.anyOf) return true;
  return value.items !== undefined ? hasChildren(spec, value.items, depth + 1) : false;
}

function property(walk: Walk, name: string, raw: unknown, required: boolean, out: string[]): void {
  const { value: schema } = deref(walk.spec, raw);
  if (isHidden(schema) || isHidden(raw)) return;
  if ((walk.mode === 'read' && schema.writeOnly === true) || (walk.mode === 'write' && schema.readOnly === true)) return;
  const head = `<code class="openapi-name">${escapeHtml(name)}</code> <span class="openapi-type">${escapeHtml(typeLabel(walk.spec, raw))}</span>${required ? ' <span class="openapi-required">required</span>' : ''}${schema.deprecated === true ? ' <span class="openapi-badge openapi-deprecated">deprecated</span>' : ''}`;
  const description = typeof schema.description === 'string' ? walk.spec.markdown(schema.description) : isObject(raw) && typeof raw.description === 'string' ? walk.spec.markdown(raw.description) : '';
  const facts = valueFacts(walk.spec, schema);
  if (hasChildren(walk.spec, raw)) {
    out.push(`<li class="openapi-property"><details><summary>${head}</summary>${description}${facts}`);
    children(walk, raw, out);
    out.push('</details></li>');
  } else {
    out.push(`<li class="openapi-property"><div class="openapi-property-head">${head}</div>${description}${facts}</li>`);
  }
}

/** The HTML of a schema: its type, then its properties (or items, or alternatives) as an expandable tree. */
export function renderSchema(spec: SpecDocument, raw: unknown, mode: 'read' | 'write', budget: Budget): string {
  const out: string[] = [];
  const { value } = deref(spec, raw);
  out.push(`<div class="openapi-schema-tree"><p class="openapi-schema-type"><span class="openapi-type">${escapeHtml(typeLabel(spec, raw))}</span></p>`);
  if (typeof value.description === 'string' && !value.properties) out.push(spec.markdown(value.description));
  children({ spec, stack: [], budget, mode }, raw, out);
  out.push('</div>');
  return out.join('');
}
