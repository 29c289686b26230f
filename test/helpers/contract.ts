import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { applyDocumentErrata } from './document-errata.ts';

/**
 * The contract check: every response that a route described by the public client's bundled OpenAPI
 * document (`@gitbook/api` 0.130.0, spec/openapi.json) sends is validated against that document's schema
 * for its status. The test app runs it on every response (see app.ts), so no test keeps a list by hand.
 */
const require = createRequire(import.meta.url);
const spec = require('@gitbook/api/spec/openapi.json') as {
  paths: Record<string, Record<string, { responses?: Record<string, { $ref?: string; content?: Record<string, { schema?: unknown }> }> }>>;
  components: Record<string, Record<string, unknown>>;
};

/**
 * Known defects of the client's document, corrected before validating; each is explained in
 * docs/decisions/0003-client-document-errata.md.
 */
function applyErrata(): void {
  const emailDomains = spec.paths['/email-domains/{emailDomain}/orgs']?.get?.responses?.['200']?.content?.['application/json']?.schema as
    | { required?: string[] }
    | undefined;
  // The document requires "organizaitons", a misspelling of the "organizations" it describes and the client reads.
  if (emailDomains?.required) emailDomains.required = emailDomains.required.map((name) => (name === 'organizaitons' ? 'organizations' : name));

  // `Document` (a part of every RevisionPageDocument) is "Markdown, or a JSON document, or empty"; its "Empty"
  // choice forbids every property, so no page without a body (every page of a tree) could match. The client
  // types it as `object`: a page that carries neither `markdown` nor `document`.
  const document = spec.components.schemas.Document as { oneOf?: Array<Record<string, unknown>> } | undefined;
  const empty = document?.oneOf?.find((choice) => choice.title === 'Empty');
  if (empty) {
    delete empty.additionalProperties;
    empty.not = { anyOf: [{ required: ['markdown'] }, { required: ['document'] }] };
  }

  applyDocumentErrata(spec.components.schemas as Record<string, Record<string, unknown>>);
}
applyErrata();

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => void;

/**
 * Turns the document's OpenAPI 3.0 schema dialect into JSON Schema for Ajv: `nullable: true` becomes a
 * null alternative, and local references point into the 'spec' schema registered below.
 */
function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase);
  if (!node || typeof node !== 'object') return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const converted = Object.fromEntries(
    Object.entries(rest).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `spec${v}` : k === 'properties' || k === 'components' || k === 'schemas' ? mapValues(v) : rebase(v)]),
  );
  if (nullable !== true) return converted;
  if (typeof converted.type === 'string') return { ...converted, type: [converted.type, 'null'], ...(Array.isArray(converted.enum) && !converted.enum.includes(null) ? { enum: [...converted.enum, null] } : {}) };
  return { anyOf: [converted, { type: 'null' }] };
}

/** Rebases each value of a name → schema map (property names are not keywords). */
function mapValues(map: unknown): unknown {
  if (!map || typeof map !== 'object') return map;
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, rebase(v)]));
}

const components = Object.fromEntries(Object.entries(spec.components).map(([k, v]) => [k, mapValues(v)]));

function validatorOf(allErrors: boolean): Ajv {
  const ajv = new Ajv({ strict: false, allErrors, discriminator: false });
  addFormats(ajv);
  for (const format of ['emoji', 'icon', 'int32', 'int64', 'float', 'double', 'byte', 'binary', 'password', 'markdown']) ajv.addFormat(format, true);
  ajv.addSchema({ $id: 'spec', components });
  return ajv;
}

/**
 * Two compilations of the document: the first stops at the first error (a valid answer is checked in time
 * linear in its size), the second collects every error to report an answer that does not fit. Collecting
 * every error made a long code block's check quadratic: a 2,000-line comment took minutes, all in Ajv.
 */
const firstError = validatorOf(false);
const everyError = validatorOf(true);
const validators = new Map<string, ValidateFunction | null>();

function responseSchema(method: string, path: string, status: number, ajv: Ajv = firstError): ValidateFunction | null {
  const key = `${ajv === firstError ? 'first' : 'every'} ${method} ${path} ${status}`;
  if (validators.has(key)) return validators.get(key)!;
  let validate: ValidateFunction | null = null;
  const operation = spec.paths[path]?.[method.toLowerCase()];
  let response = operation?.responses?.[String(status)] ?? operation?.responses?.default;
  if (response?.$ref) {
    const name = response.$ref.split('/').pop()!;
    response = { ...(spec.components.responses[name] as object), ...response };
  }
  const schema = response?.content?.['application/json']?.schema;
  if (schema) validate = ajv.compile(rebase(schema) as object);
  validators.set(key, validate);
  return validate;
}

/** The client document's path for a Fastify route URL (`/v1/orgs/:organizationId` → `/orgs/{organizationId}`). */
export function specPath(routeUrl: string): string {
  return routeUrl.replace(/^\/v1/, '').replace(/:(\w+)/g, '{$1}');
}

export function describedBySpec(method: string, routeUrl: string): boolean {
  return Boolean(spec.paths[specPath(routeUrl)]?.[method.toLowerCase()]);
}

/** Returns a description of each way `body` breaks the document's schema for this response (empty when it fits). */
export function checkResponse(method: string, routeUrl: string, status: number, body: unknown): string[] {
  const path = specPath(routeUrl);
  const operation = spec.paths[path]?.[method.toLowerCase()];
  if (!operation) return [];
  const declared = operation.responses ?? {};
  if (status < 400 && !(String(status) in declared)) {
    return [`${method} ${path} answered ${status}, which the client's document does not list (it lists ${Object.keys(declared).join(', ')})`];
  }
  const validate = responseSchema(method, path, status);
  if (!validate || validate(body)) return [];
  const detailed = responseSchema(method, path, status, everyError)!;
  detailed(body);
  return (detailed.errors ?? validate.errors ?? []).slice(0, 5).map((e) => `${method} ${path} ${status}: ${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`);
}
