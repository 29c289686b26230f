import { BadRequest } from '../errors.ts';
import { checkCondition } from '../expressions/conditions.ts';

/**
 * A site's visitor schema (adaptive content): the claims a visitor may carry, as a draft-07 JSON Schema.
 * Signed claims (from the visitor JWT) are the schema's properties; unsigned claims (from the URL) live under
 * `properties.unsigned`. Quire accepts boolean claims only: the subset of the client's
 * `SiteAdaptiveJSONSchema` that every condition template and reader understands. Everything accepted here
 * validates against the client's document (test/sites/adaptive-schema.test.ts checks it), which is why a
 * claim's description is required: the document requires it.
 */
export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
export const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.';
export const CLAIM_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
export const MAX_CLAIMS = 100;

// Names that the condition language refuses to read; a claim so named could never be used.
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

export interface AdaptiveBooleanClaim {
  type: 'boolean';
  description: string;
}

export interface AdaptiveUnsignedClaims {
  type: 'object';
  description: typeof UNSIGNED_DESCRIPTION;
  properties: Record<string, AdaptiveBooleanClaim>;
  additionalProperties: false;
}

export type AdaptiveJsonSchema = {
  $schema?: typeof DRAFT_07;
  type: 'object';
  /** Signed boolean claims by name, and the unsigned ones under `unsigned`. */
  properties: { unsigned?: AdaptiveUnsignedClaims; [name: string]: AdaptiveBooleanClaim | AdaptiveUnsignedClaims | undefined };
  additionalProperties: false;
};

export function defaultAdaptiveSchema(): AdaptiveJsonSchema {
  return {
    type: 'object',
    properties: { unsigned: { type: 'object', description: UNSIGNED_DESCRIPTION, properties: {}, additionalProperties: false } },
    additionalProperties: false,
  };
}

/**
 * Checks a visitor schema sent by a client and returns it rebuilt from what was checked (so nothing
 * unchecked is stored). Throws BadRequest naming the JSON pointer of the first problem.
 */
export function validateAdaptiveSchema(value: unknown): AdaptiveJsonSchema {
  const root = expectObject(value, '', ['$schema', 'type', 'properties', 'additionalProperties']);
  if ('$schema' in root && root.$schema !== DRAFT_07) fail('/$schema', `must be "${DRAFT_07}" when given`);
  expectConstant(root, 'type', 'object', '');
  expectConstant(root, 'additionalProperties', false, '');
  const properties = expectObject(root.properties, '/properties');
  const schema: AdaptiveJsonSchema = { ...('$schema' in root ? { $schema: DRAFT_07 } : {}), type: 'object', properties: {}, additionalProperties: false };
  let claims = 0;
  for (const [name, claim] of Object.entries(properties)) {
    if (name === 'unsigned') {
      const unsigned = validateUnsigned(claim, '/properties/unsigned');
      claims += Object.keys(unsigned.properties).length;
      schema.properties.unsigned = unsigned;
    } else {
      schema.properties[name] = validateClaim(name, claim, `/properties/${escapePointer(name)}`);
      claims++;
    }
  }
  if (claims > MAX_CLAIMS) fail('/properties', `has ${claims} claims; at most ${MAX_CLAIMS} (signed and unsigned together) are allowed`);
  return schema;
}

function validateUnsigned(value: unknown, pointer: string): AdaptiveUnsignedClaims {
  const unsigned = expectObject(value, pointer, ['type', 'description', 'properties', 'additionalProperties']);
  expectConstant(unsigned, 'type', 'object', pointer);
  expectConstant(unsigned, 'description', UNSIGNED_DESCRIPTION, pointer);
  expectConstant(unsigned, 'additionalProperties', false, pointer);
  const properties = expectObject(unsigned.properties, `${pointer}/properties`);
  const result: AdaptiveUnsignedClaims = { type: 'object', description: UNSIGNED_DESCRIPTION, properties: {}, additionalProperties: false };
  for (const [name, claim] of Object.entries(properties)) {
    result.properties[name] = validateClaim(name, claim, `${pointer}/properties/${escapePointer(name)}`);
  }
  return result;
}

/** Whether `name` can name a claim: the claim-name pattern, and not a name conditions refuse to read. */
export function isClaimName(name: string): boolean {
  return CLAIM_NAME.test(name) && !RESERVED_NAMES.has(name);
}

function validateClaim(name: string, value: unknown, pointer: string): AdaptiveBooleanClaim {
  if (!CLAIM_NAME.test(name)) fail(pointer, 'a claim name starts with a letter or "_", then letters, digits or "_", 64 characters at most');
  if (RESERVED_NAMES.has(name)) fail(pointer, `"${name}" is reserved and cannot name a claim`);
  const claim = expectObject(value, pointer, ['type', 'description']);
  if (claim.type !== 'boolean') fail(`${pointer}/type`, 'must be "boolean": Quire supports boolean claims only');
  if (typeof claim.description !== 'string') fail(`${pointer}/description`, 'a claim needs a description (a string), which editors see when writing conditions');
  return { type: 'boolean', description: claim.description };
}

/** A plain JSON object at `pointer`, with (when `allowed` is given) no keys but those. */
function expectObject(value: unknown, pointer: string, allowed?: string[]): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(pointer, 'must be an object');
  const object = value as Record<string, unknown>;
  const unknown = allowed && Object.keys(object).find((key) => !allowed.includes(key));
  if (unknown !== undefined) fail(`${pointer}/${escapePointer(unknown)}`, `is not allowed here; the only keys allowed are ${allowed!.join(', ')}`);
  return object;
}

function expectConstant(object: Record<string, unknown>, key: string, expected: unknown, pointer: string): void {
  if (object[key] !== expected) fail(`${pointer}/${key}`, `must be ${JSON.stringify(expected)}`);
}

/** RFC 6901: "~" and "/" in a key are written "~0" and "~1". */
function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function fail(pointer: string, problem: string): never {
  throw new BadRequest(`The visitor schema is not valid at "${pointer}": ${problem}.`);
}

export interface TemplateCondition {
  description: string;
  condition: string;
}

/**
 * Conditions an editor can start from, derived from the schema: each claim true, each claim not true, and
 * (with two claims or more) the first two together.
 */
export function templateConditions(schema: AdaptiveJsonSchema): TemplateCondition[] {
  const claims = claimPaths(schema);
  const templates = claims.flatMap(({ path, label }) => [
    { description: `Visitors whose ${label} is true`, condition: `${path} == true` },
    { description: `Visitors whose ${label} is not true`, condition: `${path} != true` },
  ]);
  if (claims.length >= 2) {
    const [a, b] = claims;
    templates.push({ description: `Visitors whose ${a.label} and ${b.label} are both true`, condition: `${a.path} == true && ${b.path} == true` });
  }
  // A template that does not check would be a bug here, not a visitor's mistake: fail loudly.
  for (const template of templates) checkCondition(template.condition);
  return templates;
}

/** Each claim of the schema as the expression that reads it, signed claims first. */
function claimPaths(schema: AdaptiveJsonSchema): Array<{ path: string; label: string }> {
  const signed = Object.entries(schema.properties)
    .filter(([name, claim]) => name !== 'unsigned' && claim?.type === 'boolean')
    .map(([name]) => ({ path: `visitor.claims.${name}`, label: `signed claim ${name}` }));
  const unsigned = Object.keys(schema.properties.unsigned?.properties ?? {}).map((name) => ({
    path: `visitor.claims.unsigned.${name}`,
    label: `unsigned claim ${name}`,
  }));
  return [...signed, ...unsigned];
}
