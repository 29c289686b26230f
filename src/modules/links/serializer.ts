/**
 * The response serializer of link lists, built from LinksListSchema without Ajv.
 *
 * fast-json-stringify serializes a union (`anyOf`: a link's target is a page, a file, a space or a URL) by
 * validating the value against each branch with Ajv until one fits, and compiles those validators on the
 * route's first answer: for the location branches (an organization, a space and a page each) that compile
 * was about 500 ms of CPU, a third of a fresh server's first link analysis of 10,000 pages (profiled;
 * docs/decisions/0132-link-list-serializer.md). The branches of ContentLocationSchema are told apart by
 * their `kind` constant, so this serializer picks the branch by `kind` and serializes it with
 * fast-json-stringify compiled for that branch alone; everything else is fast-json-stringify of the
 * schema's own parts, in its order (required members first, as it writes them), so the bytes are those the
 * generic serializer writes (test/api/links-serializer.test.ts compares them).
 * Compiled once per process, on first use, and shared by every route that answers a LinksList.
 */
import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { serializerCompiler } from '../../http/validation.ts';
import { ContentLocationSchema, LinksListSchema, LinkUsageSchema } from './schemas.ts';

type Serialize = (value: unknown) => string;

interface ObjectSchema {
  properties: Record<string, TSchema>;
  required?: string[];
}

function compile(schema: TSchema): Serialize {
  return fastJsonStringify(scalarUnions(schema) as Parameters<typeof fastJsonStringify>[0]) as Serialize;
}

const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/**
 * The schema with each union of bare scalar types (a nullable enum, `anyOf: [{ type: 'string', enum }, { type:
 * 'null' }]`; a variable's string, number or boolean) written as a list of types, which fast-json-stringify
 * serializes by the value's type without Ajv. For values the union admits the output is the same: a value is
 * of exactly one of the listed types, and an enum does not change how a string is written.
 */
function scalarUnions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(scalarUnions);
  if (typeof schema !== 'object' || schema === null) return schema;
  const { anyOf, ...rest } = schema as { anyOf?: unknown };
  if (Array.isArray(anyOf) && anyOf.every((option) => isBareScalar(option))) {
    const types = [...new Set(anyOf.map((option) => (option as { type: string }).type))];
    return { ...scalarUnions(rest) as object, type: types };
  }
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = scalarUnions(value);
  return copy;
}

/** `{ type: <scalar> }` with nothing but an enum and words beside it. */
function isBareScalar(option: unknown): boolean {
  if (typeof option !== 'object' || option === null) return false;
  const { type, enum: _enum, description: _description, title: _title, ...rest } = option as Record<string, unknown>;
  return typeof type === 'string' && SCALARS.has(type) && Object.keys(rest).length === 0;
}

/** Compiled on first call. */
function lazily(make: () => Serialize): Serialize {
  let compiled: Serialize | undefined;
  return (value) => (compiled ??= make())(value);
}

/**
 * An object of `schema`, each property written with the serializer `special` gives for it, else with
 * fast-json-stringify of its own schema, as fast-json-stringify writes an object: the required properties
 * first, then the optional ones, each group in the schema's order; an absent property written as its
 * default if it has one, else left out when optional and refused when required.
 */
function objectSerializer(schema: ObjectSchema, special: Record<string, Serialize> = {}): Serialize {
  const required = new Set(schema.required ?? []);
  const keys = Object.keys(schema.properties).sort((a, b) => Number(required.has(b)) - Number(required.has(a)));
  const parts = keys.map((key) => {
    const sub = schema.properties[key] as TSchema & { default?: unknown };
    return {
      key,
      prefix: `${JSON.stringify(key)}:`,
      required: required.has(key),
      fallback: sub.default === undefined ? undefined : JSON.stringify(sub.default),
      write: special[key] ?? lazily(() => compile(sub)),
    };
  });
  return (value) => {
    const object = value as Record<string, unknown>;
    let out = '';
    for (const part of parts) {
      const member = object[part.key];
      let written: string;
      if (member !== undefined) written = part.write(member);
      else if (part.fallback !== undefined) written = part.fallback;
      else if (part.required) throw new Error(`"${part.key}" is required!`);
      else continue;
      out += `${out === '' ? '' : ','}${part.prefix}${written}`;
    }
    return `{${out}}`;
  };
}

function arraySerializer(item: Serialize): Serialize {
  return (value) => `[${(value as unknown[]).map(item).join(',')}]`;
}

/** A location: the branch of ContentLocationSchema whose `kind` constant the value carries. */
function locationSerializer(): Serialize {
  const branches = new Map<string, Serialize>();
  for (const branch of (ContentLocationSchema as unknown as { anyOf: Array<ObjectSchema & TSchema> }).anyOf) {
    const kind = (branch.properties.kind as { const?: unknown }).const;
    if (typeof kind !== 'string') throw new Error('Every branch of ContentLocationSchema is told apart by a constant kind.');
    branches.set(kind, lazily(() => compile(branch)));
  }
  return (value) => {
    const write = branches.get((value as { kind?: unknown }).kind as string);
    if (!write) throw new Error(`No location of kind ${JSON.stringify((value as { kind?: unknown }).kind)}.`);
    return write(value);
  };
}

let linksList: Serialize | undefined;

/** Serializes a LinksList exactly as fast-json-stringify of LinksListSchema does, without validating a union. */
export function serializeLinksList(value: unknown): string {
  linksList ??= objectSerializer(LinksListSchema as unknown as ObjectSchema, {
    items: arraySerializer(objectSerializer(LinkUsageSchema as unknown as ObjectSchema, { targetReference: locationSerializer() })),
  });
  return linksList(value);
}

/** The serializer compiler of the routes whose 200 answer is a LinksList: that list by `serializeLinksList`, errors as usual. */
export const linksListSerializerCompiler: FastifySerializerCompiler<object> = (route) => (route.httpStatus === '200' ? serializeLinksList : serializerCompiler(route));
