import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const addFormats = addFormatsModule as unknown as (ajv: Ajv, formats?: string[]) => void;

function compiler(options: Options): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: false, removeAdditional: false, useDefaults: true, ...options });
  addFormats(ajv);
  ajv.addFormat('emoji', true);
  return ajv;
}

/**
 * Query strings and path parameters arrive as text, so their validator coerces ("10" → 10). Bodies are
 * JSON and are taken exactly as sent: a number where a string belongs is refused, never converted, and
 * an unknown member is refused, never silently dropped.
 */
const coercing = compiler({ coerceTypes: 'array' });
const exact = compiler({ coerceTypes: false });

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? exact : coercing).compile(schema) as ReturnType<FastifySchemaCompiler<object>>;
