import { parse as parseYaml } from 'yaml';
import { nulLine, nulMessage } from '../http/text-rules.ts';
import { yamlDepth } from '../yaml-depth.ts';
import { SpecProcessingError } from './errors.ts';

export type SpecObject = Record<string, unknown>;

/** JSON or YAML text to an object; PARSE_ERROR naming the line when it is neither. */
export function parseDescription(text: string, where: string): SpecObject {
  const line = nulLine(text);
  if (line > 0) throw new SpecProcessingError('PARSE_ERROR', nulMessage(where, line));
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  let value: unknown;
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      throw new SpecProcessingError('PARSE_ERROR', `${where} is not valid JSON (${(error as Error).message}); fix the syntax, or give YAML instead.`);
    }
  } else {
    // Real descriptions nest a few dozen levels; thousands would exhaust the parser's stack.
    if (yamlDepth(trimmed) > 256) throw new SpecProcessingError('PARSE_ERROR', `${where} nests its values more than 256 deep; no API description needs that many levels.`);
    try {
      value = parseYaml(trimmed, { maxAliasCount: 10_000, uniqueKeys: false });
    } catch (error) {
      const message = (error as Error).message.split('\n')[0];
      throw new SpecProcessingError('PARSE_ERROR', `${where} is neither JSON nor valid YAML (${message}); check that the URL serves the description itself and not a web page.`);
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new SpecProcessingError('PARSE_ERROR', `${where} does not hold an OpenAPI description (an object with "openapi" or "swagger" at its top); check that the URL serves the description itself.`);
  }
  // A NUL written as an escape ("\u0000" in JSON, "\0" in YAML) is as unstorable as one written raw.
  if (JSON.stringify(value).includes('\\u0000')) {
    throw new SpecProcessingError('PARSE_ERROR', `${where} holds a NUL character in a string (written as an escape); source text may not hold NUL. Remove it and publish the description again.`);
  }
  return value as SpecObject;
}

/** The version family a description declares, or a PARSE_ERROR saying which versions Quire reads. */
export function declaredVersion(spec: SpecObject, where: string): '2.0' | '3.0' | '3.1' {
  const swagger = spec.swagger;
  const openapi = spec.openapi;
  if (typeof swagger === 'string' && swagger.startsWith('2.')) return '2.0';
  if (typeof openapi === 'string' && /^3\.0(\.|$)/.test(openapi)) return '3.0';
  if (typeof openapi === 'string' && /^3\.1(\.|$)/.test(openapi)) return '3.1';
  const said = typeof openapi === 'string' ? `"openapi: ${openapi}"` : typeof swagger === 'string' ? `"swagger: ${swagger}"` : 'no "openapi" or "swagger" version';
  throw new SpecProcessingError('PARSE_ERROR', `${where} has ${said}; Quire reads Swagger 2.0 and OpenAPI 3.0 and 3.1 descriptions.`);
}

function resolves(spec: SpecObject, ref: string): boolean {
  let node: unknown = spec;
  const pointer = decodeURIComponent(ref.slice(1));
  if (pointer === '') return true;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node || typeof node !== 'object' || !Object.hasOwn(node, token)) return false;
    node = (node as Record<string, unknown>)[token];
  }
  return true;
}

/** The local `$ref`s of a bundled description that point to nothing (at most `limit`), with where they are. */
export function unresolvedReferences(spec: SpecObject, limit = 3): string[] {
  const missing: string[] = [];
  const seen = new Set<string>();
  const walk = (node: unknown, path: string) => {
    if (missing.length >= limit || !node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${path}/${i}`));
    const ref = (node as Record<string, unknown>).$ref;
    if (typeof ref === 'string' && ref.startsWith('#') && !seen.has(ref)) {
      seen.add(ref);
      if (!resolves(spec, ref)) missing.push(`"${ref}" (at ${path || '/'})`);
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'example' && key !== 'examples') walk(value, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  };
  walk(spec, '');
  return missing;
}

/** Validates a bundled description against the OpenAPI schema of its version, internal $refs included. */
export async function validateDescription(spec: SpecObject, where: string): Promise<void> {
  declaredVersion(spec, where);
  const missing = unresolvedReferences(spec);
  if (missing.length) {
    throw new SpecProcessingError('PARSE_ERROR', `${where} has $ref${missing.length > 1 ? 's' : ''} that point to nothing: ${missing.join(', ')}. Add the missing definitions or fix the references.`);
  }
  // Loaded on first use (a large library most processes never call).
  const { validate } = await import('@scalar/openapi-parser');
  const result = await validate(spec);
  if (result.valid) return;
  const errors = result.errors ?? [];
  const at = (path: unknown) => (Array.isArray(path) ? path.join('/') : typeof path === 'string' ? path : '');
  const shown = errors.slice(0, 3).map((e) => (at(e.path) ? `${e.message} (at ${at(e.path)})` : e.message));
  const more = errors.length > 3 ? ` and ${errors.length - 3} more` : '';
  throw new SpecProcessingError('PARSE_ERROR', `${where} is not a valid OpenAPI description: ${shown.join('; ')}${more}. Fix it and publish it again.`);
}
