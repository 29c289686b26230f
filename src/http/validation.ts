import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import fastJsonStringify from 'fast-json-stringify';

const addFormats = addFormatsModule as unknown as (ajv: Ajv, formats?: string[]) => void;

/**
 * `validateSchema: false`: Ajv does not check each schema against the JSON Schema meta-schema as it compiles
 * it. That check compiled the meta-schema itself on the first compile of each instance, about 70 ms of CPU
 * (more on a loaded machine) in the first request of every process, for schemas that are the code's own
 * (TypeBox) and never change while it runs: `invalidRouteSchemas` makes the same check in the tests
 * (test/http/route-schemas.test.ts).
 */
function compiler(options: Options): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: false, removeAdditional: false, useDefaults: true, validateSchema: false, ...options });
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

/** Every schema the routes of this process gave the validator compiler, for `invalidRouteSchemas`. */
const routeSchemas = new Set<object>();

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  routeSchemas.add(schema);
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

/**
 * The schemas given to the validator compiler so far that are not valid JSON Schema (the check Ajv skips
 * when it compiles them, see `compiler`), each with Ajv's message; and how many were checked. For tests.
 */
export function invalidRouteSchemas(): { checked: number; invalid: string[] } {
  const checker = new Ajv({ strict: false });
  const invalid: string[] = [];
  for (const schema of routeSchemas) {
    if (!checker.validateSchema(schema)) invalid.push(`${JSON.stringify(schema).slice(0, 200)}: ${checker.errorsText(checker.errors)}`);
  }
  return { checked: routeSchemas.size, invalid };
}

/** Response serializers, compiled by fast-json-stringify (Fastify's own) on a route's first answer with that status. */
export const serializerCompiler: FastifySerializerCompiler<object> = ({ schema }) => {
  let compiled: ((data: unknown) => string) | undefined;
  return (data) => (compiled ??= fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0]))(data);
};
