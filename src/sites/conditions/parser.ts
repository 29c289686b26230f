import { FORBIDDEN_PROPERTIES, METHODS, type EqualityOperator, type Expr, type MethodName, type RelationalOperator } from './ast.ts';
import { ConditionSyntaxError } from './errors.ts';
import { tokenize, type Token } from './lexer.ts';

export const MAX_CONDITION_LENGTH = 1024;
export const MAX_CONDITION_DEPTH = 64;

const EQUALITY = new Set(['==', '!=', '===', '!==']);
const RELATIONAL = new Set(['<', '<=', '>', '>=']);
const LITERAL_NAMES = new Map<string, Expr>([
  ['true', { type: 'literal', value: true }],
  ['false', { type: 'literal', value: false }],
  ['null', { type: 'literal', value: null }],
  ['undefined', { type: 'literal', value: undefined }],
]);

/**
 * Parses a condition into its tree (recursive descent, JavaScript's precedence: || below && below equality
 * below comparison below unary below member access and calls). Throws ConditionSyntaxError.
 */
export function parse(source: string): Expr {
  if (source.length > MAX_CONDITION_LENGTH) {
    throw new ConditionSyntaxError('The condition is too long', MAX_CONDITION_LENGTH + 1, `it has ${source.length} characters, at most ${MAX_CONDITION_LENGTH} are allowed`);
  }
  if (source.trim() === '') throw new ConditionSyntaxError('The condition is empty', 1, 'write an expression such as visitor.claims.plan == "pro"');
  return new Parser(tokenize(source)).parseAll();
}

class Parser {
  private position = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parseAll(): Expr {
    const expr = this.expression();
    const next = this.peek();
    if (next.kind !== 'end') throw new ConditionSyntaxError(`Unexpected ${describe(next)}`, next.column, 'expected an operator such as && or ||, or the end');
    return expr;
  }

  private expression(): Expr {
    return this.nested(() => this.or());
  }

  private or(): Expr {
    let left = this.and();
    while (this.accept('||')) left = { type: 'logical', operator: '||', left, right: this.and() };
    return left;
  }

  private and(): Expr {
    let left = this.equality();
    while (this.accept('&&')) left = { type: 'logical', operator: '&&', left, right: this.equality() };
    return left;
  }

  private equality(): Expr {
    let left = this.relational();
    while (this.isPunct(EQUALITY)) {
      const operator = this.next().text as EqualityOperator;
      left = { type: 'equality', operator, left, right: this.relational() };
    }
    return left;
  }

  private relational(): Expr {
    let left = this.unary();
    while (this.isPunct(RELATIONAL)) {
      const operator = this.next().text as RelationalOperator;
      left = { type: 'relational', operator, left, right: this.unary() };
    }
    return left;
  }

  private unary(): Expr {
    if (this.accept('!')) return this.nested(() => ({ type: 'not', operand: this.unary() }));
    if (this.accept('-')) return this.nested(() => ({ type: 'negate', operand: this.unary() }));
    return this.postfix();
  }

  /** Member access, index and method calls, left to right: `visitor.claims.roles.includes("admin")`. */
  private postfix(): Expr {
    let expr = this.primary();
    for (;;) {
      if (this.accept('.')) expr = this.member(expr);
      else if (this.peekPunct('[')) expr = this.index(expr);
      else if (this.peekPunct('(')) throw this.notCallable(this.peek());
      else return expr;
    }
  }

  private member(object: Expr): Expr {
    const name = this.next();
    if (name.kind !== 'name') throw new ConditionSyntaxError(`Expected a property name after "." but found ${describe(name)}`, name.column);
    refuseForbidden(name.text, name.column);
    if (!this.peekPunct('(')) return { type: 'property', object, name: name.text };
    if (!METHODS.has(name.text)) throw this.notCallable(name);
    return this.call(object, name.text as MethodName);
  }

  private call(object: Expr, method: MethodName): Expr {
    const open = this.next();
    if (this.peekPunct(')')) throw new ConditionSyntaxError(`.${method}(…) takes one argument`, open.column);
    const argument = this.expression();
    if (this.peekPunct(',')) throw new ConditionSyntaxError(`.${method}(…) takes one argument`, this.peek().column);
    this.expect(')');
    return { type: 'call', object, method, argument };
  }

  private index(object: Expr): Expr {
    this.next();
    const column = this.peek().column;
    const key = this.expression();
    this.expect(']');
    if (key.type === 'literal' && (typeof key.value === 'string' || typeof key.value === 'number')) {
      refuseForbidden(String(key.value), column);
      return { type: 'property', object, name: String(key.value) };
    }
    return { type: 'index', object, key };
  }

  private primary(): Expr {
    const token = this.next();
    switch (token.kind) {
      case 'number':
        return { type: 'literal', value: token.number };
      case 'string':
        return { type: 'literal', value: token.text };
      case 'name':
        return this.name(token);
      case 'end':
        throw new ConditionSyntaxError('The condition ends too early', token.column, 'expected a value');
    }
    if (token.text === '(') {
      const inner = this.expression();
      this.expect(')');
      return inner;
    }
    if (token.text === '[') return this.nested(() => this.arrayLiteral());
    throw new ConditionSyntaxError(`Unexpected ${describe(token)}`, token.column, 'expected a value');
  }

  private name(token: Token): Expr {
    const literal = LITERAL_NAMES.get(token.text);
    if (literal) return literal;
    if (token.text === 'visitor') return { type: 'visitor' };
    throw new ConditionSyntaxError(`Unknown name "${token.text}"`, token.column, "conditions read the visitor's claims, e.g. visitor.claims.plan");
  }

  /** After "[": elements separated by commas, a trailing comma allowed as in JavaScript. */
  private arrayLiteral(): Expr {
    const elements: Expr[] = [];
    while (!this.accept(']')) {
      elements.push(this.or());
      if (!this.accept(',')) {
        this.expect(']');
        break;
      }
    }
    return { type: 'array', elements };
  }

  /** Counts nesting, so that a deep expression is refused before it can exhaust the stack. */
  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_CONDITION_DEPTH) {
      throw new ConditionSyntaxError('The condition nests too deeply', this.peek().column, `at most ${MAX_CONDITION_DEPTH} levels are allowed`);
    }
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private notCallable(token: Token): ConditionSyntaxError {
    const problem = token.kind === 'name' ? `"${token.text}" cannot be called` : 'Unexpected "("';
    return new ConditionSyntaxError(problem, token.column, 'only .includes(…), .startsWith(…) and .endsWith(…) can be called');
  }

  private expect(punct: string): void {
    const token = this.peek();
    if (!this.accept(punct)) throw new ConditionSyntaxError(`Expected "${punct}"`, token.column);
  }

  private accept(punct: string): boolean {
    if (!this.peekPunct(punct)) return false;
    this.position++;
    return true;
  }

  private isPunct(set: Set<string>): boolean {
    const token = this.peek();
    return token.kind === 'punct' && set.has(token.text);
  }

  private peekPunct(punct: string): boolean {
    const token = this.peek();
    return token.kind === 'punct' && token.text === punct;
  }

  private peek(): Token {
    return this.tokens[this.position];
  }

  private next(): Token {
    const token = this.tokens[this.position];
    if (token.kind !== 'end') this.position++;
    return token;
  }
}

function refuseForbidden(name: string, column: number): void {
  if (FORBIDDEN_PROPERTIES.has(name)) throw new ConditionSyntaxError(`"${name}" cannot be read`, column, "conditions read only the visitor's claims");
}

function describe(token: Token): string {
  if (token.kind === 'end') return 'the end of the condition';
  if (token.kind === 'string') return 'a string';
  return `"${token.text}"`;
}
