import { FORBIDDEN_PROPERTIES, METHODS, ROOT_NAMES, type ArithmeticOperator, type EqualityOperator, type Expr, type MethodName, type RelationalOperator, type RootName } from './ast.ts';
import { ExpressionSyntaxError } from './errors.ts';
import { tokenize, type Token } from './lexer.ts';

export const MAX_EXPRESSION_LENGTH = 1024;
export const MAX_EXPRESSION_DEPTH = 64;

/** Where an expression is written: which roots it may read, and what the author calls it. */
export interface Dialect {
  roots: readonly RootName[];
  /** "condition" (site sections and site spaces) or "expression" (pages), for messages. */
  noun: string;
  /** What to write instead of an unknown name. */
  rootsHint: string;
}

const EQUALITY = new Set(['==', '!=', '===', '!==']);
const RELATIONAL = new Set(['<', '<=', '>', '>=']);
const ADDITIVE = new Set(['+', '-']);
const MULTIPLICATIVE = new Set(['*', '/']);
const LITERAL_NAMES = new Map<string, Expr>([
  ['true', { type: 'literal', value: true }],
  ['false', { type: 'literal', value: false }],
  ['null', { type: 'literal', value: null }],
  ['undefined', { type: 'literal', value: undefined }],
]);

/**
 * Parses an expression into its tree (recursive descent, JavaScript's precedence: ?: below || and ?? below
 * && below equality below comparison below + - below * / below unary below member access and calls).
 * Throws ExpressionSyntaxError.
 */
export function parse(source: string, dialect: Dialect): Expr {
  if (source.length > MAX_EXPRESSION_LENGTH) {
    throw new ExpressionSyntaxError(`The ${dialect.noun} is too long`, MAX_EXPRESSION_LENGTH + 1, `it has ${source.length} characters, at most ${MAX_EXPRESSION_LENGTH} are allowed`);
  }
  if (source.trim() === '') throw new ExpressionSyntaxError(`The ${dialect.noun} is empty`, 1, 'write an expression such as visitor.claims.plan == "pro"');
  return new Parser(tokenize(source), dialect).parseAll();
}

class Parser {
  private position = 0;
  private depth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly dialect: Dialect,
  ) {}

  parseAll(): Expr {
    const expr = this.expression();
    const next = this.peek();
    if (next.kind !== 'end') throw new ExpressionSyntaxError(`Unexpected ${describe(next, this.dialect)}`, next.column, 'expected an operator such as && or ||, or the end');
    return expr;
  }

  private expression(): Expr {
    return this.nested(() => this.conditional());
  }

  /** `test ? consequent : alternate`, right-associative. */
  private conditional(): Expr {
    const test = this.or();
    if (!this.accept('?')) return test;
    const consequent = this.nested(() => this.conditional());
    this.expect(':');
    const alternate = this.nested(() => this.conditional());
    return { type: 'conditional', test, consequent, alternate };
  }

  private or(): Expr {
    let left = this.and();
    for (;;) {
      if (this.accept('||')) left = { type: 'logical', operator: '||', left, right: this.and() };
      else if (this.accept('??')) left = { type: 'logical', operator: '??', left, right: this.and() };
      else return left;
    }
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
    let left = this.additive();
    while (this.isPunct(RELATIONAL)) {
      const operator = this.next().text as RelationalOperator;
      left = { type: 'relational', operator, left, right: this.additive() };
    }
    return left;
  }

  private additive(): Expr {
    let left = this.multiplicative();
    while (this.isPunct(ADDITIVE)) {
      const operator = this.next().text as ArithmeticOperator;
      left = { type: 'arithmetic', operator, left, right: this.multiplicative() };
    }
    return left;
  }

  private multiplicative(): Expr {
    let left = this.unary();
    while (this.isPunct(MULTIPLICATIVE)) {
      const operator = this.next().text as ArithmeticOperator;
      left = { type: 'arithmetic', operator, left, right: this.unary() };
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
    if (name.kind !== 'name') throw new ExpressionSyntaxError(`Expected a property name after "." but found ${describe(name, this.dialect)}`, name.column);
    refuseForbidden(name.text, name.column);
    if (!this.peekPunct('(')) return { type: 'property', object, name: name.text };
    if (!METHODS.has(name.text)) throw this.notCallable(name);
    return this.call(object, name.text as MethodName);
  }

  private call(object: Expr, method: MethodName): Expr {
    const open = this.next();
    if (this.peekPunct(')')) throw new ExpressionSyntaxError(`.${method}(…) takes one argument`, open.column);
    const argument = this.expression();
    if (this.peekPunct(',')) throw new ExpressionSyntaxError(`.${method}(…) takes one argument`, this.peek().column);
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
        throw new ExpressionSyntaxError(`The ${this.dialect.noun} ends too early`, token.column, 'expected a value');
    }
    if (token.text === '(') {
      const inner = this.expression();
      this.expect(')');
      return inner;
    }
    if (token.text === '[') return this.nested(() => this.arrayLiteral());
    throw new ExpressionSyntaxError(`Unexpected ${describe(token, this.dialect)}`, token.column, 'expected a value');
  }

  private name(token: Token): Expr {
    const literal = LITERAL_NAMES.get(token.text);
    if (literal) return literal;
    const root = ROOT_NAMES.find((name) => name === token.text);
    if (root && this.dialect.roots.includes(root)) return { type: 'root', name: root };
    throw new ExpressionSyntaxError(`Unknown name "${token.text}"`, token.column, this.dialect.rootsHint);
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
    if (++this.depth > MAX_EXPRESSION_DEPTH) {
      throw new ExpressionSyntaxError(`The ${this.dialect.noun} nests too deeply`, this.peek().column, `at most ${MAX_EXPRESSION_DEPTH} levels are allowed`);
    }
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private notCallable(token: Token): ExpressionSyntaxError {
    const problem = token.kind === 'name' ? `"${token.text}" cannot be called` : 'Unexpected "("';
    return new ExpressionSyntaxError(problem, token.column, 'only .includes(…), .startsWith(…) and .endsWith(…) can be called');
  }

  private expect(punct: string): void {
    const token = this.peek();
    if (!this.accept(punct)) throw new ExpressionSyntaxError(`Expected "${punct}"`, token.column);
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
  if (FORBIDDEN_PROPERTIES.has(name)) throw new ExpressionSyntaxError(`"${name}" cannot be read`, column, 'expressions read data only');
}

function describe(token: Token, dialect: Dialect): string {
  if (token.kind === 'end') return `the end of the ${dialect.noun}`;
  if (token.kind === 'string') return 'a string';
  return `"${token.text}"`;
}
