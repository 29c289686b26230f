import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { applyDocumentErrata } from '../helpers/document-errata.ts';

/**
 * A validator for the client's `JSONDocument` schema (the JSON document model of page bodies), read
 * from the public client's bundled OpenAPI document. Like test/helpers/contract.ts, it turns the
 * document's OpenAPI 3.0 `nullable` into JSON Schema; that helper only exports response checks, so the
 * few lines are repeated here.
 */
const require = createRequire(import.meta.url);
const spec = require('@gitbook/api/spec/openapi.json') as { components: { schemas: Record<string, unknown> } };
applyDocumentErrata(spec.components.schemas as Record<string, Record<string, unknown>>);

function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase);
  if (!node || typeof node !== 'object') return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const converted: Record<string, unknown> = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `spec${value}` : key === 'properties' ? mapValues(value) : rebase(value),
    ]),
  );
  if (nullable !== true) return converted;
  if (typeof converted.type === 'string') return { ...converted, type: [converted.type, 'null'] };
  return { anyOf: [converted, { type: 'null' }] };
}

function mapValues(map: unknown): unknown {
  if (!map || typeof map !== 'object') return map;
  return Object.fromEntries(Object.entries(map).map(([key, value]) => [key, rebase(value)]));
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => void;
const ajv = new Ajv({ strict: false, allErrors: true, discriminator: false });
addFormats(ajv);
for (const format of ['emoji', 'icon', 'int32', 'int64', 'float', 'double', 'byte', 'binary', 'password', 'markdown']) ajv.addFormat(format, true);
ajv.addSchema({ $id: 'spec', components: { schemas: mapValues(spec.components.schemas) } });

const validateJsonDocument = ajv.compile({ $ref: 'spec#/components/schemas/JSONDocument' });
const validateDocument = ajv.compile({ $ref: 'spec#/components/schemas/Document' });

/** Every way `document` breaks the client's `JSONDocument` schema (and `Document` as `{ document }`); empty when it fits. */
export function documentSchemaErrors(document: unknown): string[] {
  const errors: string[] = [];
  if (!validateJsonDocument(document)) {
    errors.push(...(validateJsonDocument.errors ?? []).slice(0, 8).map((e) => `JSONDocument ${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`));
  }
  if (!validateDocument({ document })) errors.push('Document: { document } does not match exactly one of its forms');
  return errors;
}
