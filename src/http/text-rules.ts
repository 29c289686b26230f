/**
 * Text rules in one place: no string a client sends (a body member, a query or path parameter, a member's
 * name) may hold NUL or another C0 control character; tab, line feed and carriage return are text. SQLite
 * would store them and PostgreSQL refuses NUL, so both databases refuse them alike, here, before anything
 * reads the request.
 */
import type { FastifyRequest } from 'fastify';
import { CONTROL } from '../control-characters.ts';
import { BadRequest } from '../errors.ts';

const PLACES = { body: 'body member', querystring: 'query parameter', params: 'path parameter' } as const;

function describe(char: string): string {
  return char === '\u0000' ? 'a NUL character' : `the control character U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The first control character in a value (its strings and member names), with the path of the member that holds it. */
export function findControlCharacter(value: unknown): { path: string; char: string } | undefined {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (typeof item === 'string') {
      const found = CONTROL.exec(item);
      if (found) return { path, char: found[0] };
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], path ? `${path}.${i}` : String(i)]);
    } else if (item && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        const found = CONTROL.exec(key);
        const at = path ? `${path}.${key}` : key;
        if (found) return { path: at, char: found[0] };
        stack.push([child, at]);
      }
    }
  }
  return undefined;
}

/** A preValidation hook: refuses a request whose body, query or path holds a control character, naming the member. */
export async function refuseControlCharacters(request: FastifyRequest): Promise<void> {
  for (const part of ['params', 'querystring', 'body'] as const) {
    const value = part === 'params' ? request.params : part === 'querystring' ? request.query : request.body;
    if (typeof value === 'string' && part === 'body') continue;
    const found = findControlCharacter(value);
    if (!found) continue;
    const member = found.path ? `The ${PLACES[part]} "${found.path}"` : `The ${part === 'body' ? 'body' : PLACES[part]}`;
    throw new BadRequest(`${member} holds ${describe(found.char)}; text may not hold control characters other than tab, line feed and carriage return.`);
  }
}
