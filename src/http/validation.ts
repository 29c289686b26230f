import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import fastJsonStringify from 'fast-json-stringify';

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

/**
 * Schemas are compiled when a route first uses them, not when the app starts: compiling every route's
 * validators and response serializers took about a second of CPU at each start (every server process,
 * every test file's apps, every `quire` command that builds the app), most of it for routes the process
 * never answers. A schema Ajv or fast-json-stringify cannot compile then fails that route's first request
 * (a 500, caught by the tests that call each route) instead of the start.
 */
type Validate = ((data: unknown) => boolean) & { errors?: unknown };

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  let compiled: Validate | undefined;
  const validate: Validate = (data) => {
    compiled ??= (httpPart === 'body' ? exact : coercing).compile(schema) as Validate;
    const valid = compiled(data);
    // Fastify reads the errors from the function it was given.
    validate.errors = compiled.errors;
    return valid;
  };
  return validate as ReturnType<FastifySchemaCompiler<object>>;
};

/** Response serializers, compiled by fast-json-stringify (Fastify's own) on a route's first answer with that status. */
export const serializerCompiler: FastifySerializerCompiler<object> = ({ schema }) => {
  let compiled: ((data: unknown) => string) | undefined;
  return (data) => (compiled ??= fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0]))(data);
};
