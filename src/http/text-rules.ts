/**
 * Text rules in one place: no string a client sends (a body member, a query or path parameter, a member's
 * name) may hold NUL or another C0 control character; tab, line feed and carriage return are text. SQLite
 * would store them and PostgreSQL refuses NUL, so both databases refuse them alike, here, before anything
 * reads the request.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
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

/** The refusal of the first control character in a request's path, query or body, naming the member; undefined when there is none. */
function controlCharacterRefusal(request: FastifyRequest): BadRequest | undefined {
  for (const part of ['params', 'querystring', 'body'] as const) {
    const value = part === 'params' ? request.params : part === 'querystring' ? request.query : request.body;
    if (value === undefined || value === null || (typeof value === 'string' && part === 'body')) continue;
    const found = findControlCharacter(value);
    if (!found) continue;
    const member = found.path ? `The ${PLACES[part]} "${found.path}"` : `The ${part === 'body' ? 'body' : PLACES[part]}`;
    return new BadRequest(`${member} holds ${describe(found.char)}; text may not hold control characters other than tab, line feed and carriage return.`);
  }
  return undefined;
}

/**
 * A preValidation hook: refuses a request whose body, query or path holds a control character, naming the
 * member. Synchronous (it runs on every request, and an async hook costs a promise and a turn each time).
 */
export function refuseControlCharacters(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  // Without a body and without a percent sign in the address, the path and query parameters are pieces of
  // the address itself (a '+' decodes to a space): if it holds no control character, neither do they.
  // Most reads end here without walking their parameters.
  if ((request.body === undefined || request.body === null) && !request.url.includes('%') && !CONTROL.test(request.url)) return done();
  done(controlCharacterRefusal(request));
}

/**
 * The line (from 1) of the first NUL in a source text (a Markdown file, an archive's entry, an HTML page, a
 * file of a Git commit, an OpenAPI description), or 0 when there is none. One linear scan of the whole text:
 * a NUL anywhere, not only near the start, must be found before the text is read or stored, since
 * PostgreSQL refuses it in text and SQLite would keep it.
 */
export function nulLine(text: string): number {
  const at = text.indexOf('\u0000');
  if (at < 0) return 0;
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The refusal of a source text that holds NUL, naming it (`what`: 'the Markdown of "a.md"') and the line. */
export function nulMessage(what: string, line: number): string {
  return `${what.charAt(0).toUpperCase()}${what.slice(1)} holds a NUL character (line ${line}); source text may not hold NUL. Remove it (it often comes from a file saved as UTF-16 or a binary file given a text name) and send it again.`;
}

/** Refuses (400) a source text that holds a NUL anywhere. */
export function refuseNul(text: string, what: string): void {
  const line = nulLine(text);
  if (line > 0) throw new BadRequest(nulMessage(what, line));
}
