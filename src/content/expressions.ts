import type { VariableValue, Variables } from './nodes.ts';

/**
 * Expressions in page content (`space.vars.version`, `page.vars.plan == "pro" ? "Pro" : "Free"`): a small,
 * safe subset of JavaScript expressions, evaluated against the revision's variables (`space.vars`) and the
 * page's own (`page.vars`). Nothing but reading those variables is possible: no calls, no assignment, no
 * access to anything outside the scope. Operators: literals, `.`/`[]` member access, `!`, unary `-`, `+ - * /`,
 * comparisons, `== != === !==`, `&& || ??`, `? :` and parentheses.
 */
export interface ExpressionScope {
  space: { vars: Variables };
  page: { vars: Variables };
}

type Value = VariableValue | null | undefined | Record<string, unknown>;

export class ExpressionError extends Error {}

const TOKEN = /\s*(?:(\d+(?:\.\d+)?)|("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|([A-Za-z_$][\w$]*)|(===|!==|==|!=|<=|>=|&&|\|\||\?\?|[-+*/!<>?:.()[\]]))/y;

type Token = { kind: 'number'; value: number } | { kind: 'string'; value: string } | { kind: 'name'; value: string } | { kind: 'op'; value: string };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < source.length) {
    if (/^\s*$/.test(source.slice(at))) break;
    TOKEN.lastIndex = at;
    const match = TOKEN.exec(source);
    if (!match) throw new ExpressionError(`Unexpected character at ${at} in "${source}".`);
    at = TOKEN.lastIndex;
    if (match[1] !== undefined) tokens.push({ kind: 'number', value: Number(match[1]) });
    else if (match[2] !== undefined) tokens.push({ kind: 'string', value: unquote(match[2]) });
    else if (match[3] !== undefined) tokens.push({ kind: 'name', value: match[3] });
    else tokens.push({ kind: 'op', value: match[4] });
  }
  return tokens;
}

function unquote(literal: string): string {
  return literal.slice(1, -1).replace(/\\(.)/g, (_all, c: string) => ({ n: '\n', t: '\t' })[c] ?? c);
}

const BINARY: Array<{ ops: string[] }> = [
  { ops: ['||', '??'] },
  { ops: ['&&'] },
  { ops: ['==', '!=', '===', '!=='] },
  { ops: ['<', '>', '<=', '>='] },
  { ops: ['+', '-'] },
  { ops: ['*', '/'] },
];

class Parser {
  private at = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly scope: ExpressionScope,
  ) {}

  parse(): Value {
    const value = this.ternary();
    if (this.at < this.tokens.length) throw new ExpressionError('Unexpected text after the end of the expression.');
    return value;
  }

  private peek(op: string): boolean {
    const token = this.tokens[this.at];
    return token?.kind === 'op' && token.value === op;
  }

  private expect(op: string): void {
    if (!this.peek(op)) throw new ExpressionError(`Expected "${op}".`);
    this.at++;
  }

  private ternary(): Value {
    const condition = this.binary(0);
    if (!this.peek('?')) return condition;
    this.at++;
    const yes = this.ternary();
    this.expect(':');
    const no = this.ternary();
    return condition ? yes : no;
  }

  private binary(level: number): Value {
    if (level === BINARY.length) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      const token = this.tokens[this.at];
      if (token?.kind !== 'op' || !BINARY[level].ops.includes(token.value)) return left;
      this.at++;
      const right = this.binary(level + 1);
      left = apply(token.value, left, right);
    }
  }

  private unary(): Value {
    if (this.peek('!')) {
      this.at++;
      return !this.unary();
    }
    if (this.peek('-')) {
      this.at++;
      return -Number(this.unary());
    }
    return this.member();
  }

  private member(): Value {
    let value = this.primary();
    for (;;) {
      if (this.peek('.')) {
        this.at++;
        const name = this.tokens[this.at++];
        if (name?.kind !== 'name') throw new ExpressionError('Expected a name after ".".');
        value = property(value, name.value);
      } else if (this.peek('[')) {
        this.at++;
        const key = this.ternary();
        this.expect(']');
        value = property(value, String(key));
      } else {
        return value;
      }
    }
  }

  private primary(): Value {
    const token = this.tokens[this.at++];
    if (!token) throw new ExpressionError('The expression ends too early.');
    if (token.kind === 'number' || token.kind === 'string') return token.value;
    if (token.kind === 'name') {
      if (token.value === 'true') return true;
      if (token.value === 'false') return false;
      if (token.value === 'null') return null;
      if (token.value === 'undefined') return undefined;
      return property(this.scope as unknown as Record<string, unknown>, token.value);
    }
    if (token.value === '(') {
      const value = this.ternary();
      this.expect(')');
      return value;
    }
    throw new ExpressionError(`Unexpected "${token.value}".`);
  }
}

/** Reads an own property of a plain object; anything else (prototypes, strings' methods) is undefined. */
function property(value: Value, name: string): Value {
  if (!value || typeof value !== 'object' || !Object.hasOwn(value, name)) return undefined;
  const found = (value as Record<string, unknown>)[name];
  if (found === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof found)) return found as Value;
  return found && typeof found === 'object' && !Array.isArray(found) ? (found as Record<string, unknown>) : undefined;
}

function apply(op: string, a: Value, b: Value): Value {
  switch (op) {
    case '||': return a || b;
    case '??': return a ?? b;
    case '&&': return a && b;
    case '==': case '===': return a === b;
    case '!=': case '!==': return a !== b;
    case '<': return (a as number) < (b as number);
    case '>': return (a as number) > (b as number);
    case '<=': return (a as number) <= (b as number);
    case '>=': return (a as number) >= (b as number);
    case '+': return typeof a === 'string' || typeof b === 'string' ? display(a) + display(b) : Number(a) + Number(b);
    case '-': return Number(a) - Number(b);
    case '*': return Number(a) * Number(b);
    case '/': return Number(a) / Number(b);
  }
  throw new ExpressionError(`Unknown operator "${op}".`);
}

/** Evaluates an expression; throws ExpressionError when it cannot be read. */
export function evaluateExpression(source: string, scope: ExpressionScope): Value {
  return new Parser(tokenize(source), scope).parse();
}

/** An expression's value as text: empty for nothing (an unknown variable, or an expression that cannot be read). */
export function evaluateToText(source: string, scope: ExpressionScope): string {
  try {
    return display(evaluateExpression(source, scope));
  } catch (error) {
    if (error instanceof ExpressionError) return '';
    throw error;
  }
}

/** An expression's value as a condition: false when it cannot be read. */
export function evaluateToBoolean(source: string, scope: ExpressionScope): boolean {
  try {
    return Boolean(evaluateExpression(source, scope));
  } catch (error) {
    if (error instanceof ExpressionError) return false;
    throw error;
  }
}

function display(value: Value): string {
  if (value === null || value === undefined || typeof value === 'object') return '';
  return String(value);
}
