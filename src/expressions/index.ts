import { LruCache } from '../lru.ts';
import type { Expr } from './ast.ts';
import { evaluate, valueOf, type Scope } from './evaluate.ts';
import { MAX_EXPRESSION_LENGTH, parse, type Dialect } from './parser.ts';

/**
 * Quire's one expression language: a small, safe subset of JavaScript expressions over a scope of data —
 * the visitor's claims in site conditions, the space's and page's variables (and the visitor) in pages.
 * It is parsed into a tree (src/expressions/parser.ts) and interpreted (evaluate.ts); nothing is ever
 * handed to eval, nothing but own data properties is read, and nothing can be called but
 * `.includes`, `.startsWith` and `.endsWith`. Its semantics are written in docs/api.md#expressions.
 */
export { ExpressionSyntaxError } from './errors.ts';
export { MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_LENGTH, type Dialect } from './parser.ts';
export { EvaluationProblem, type Scope } from './evaluate.ts';
export type { RootName } from './ast.ts';

/** A parsed expression. Opaque to callers: pass it to `holds` or `valueOfCompiled`. */
export interface CompiledExpression {
  readonly source: string;
  /** @internal */
  readonly expr: Expr;
}

/** Parses an expression of a dialect; throws ExpressionSyntaxError saying where and why. */
export function compile(source: string, dialect: Dialect): CompiledExpression {
  return { source, expr: parse(source, dialect) };
}

/** Whether the expression holds over the scope. Never throws: one that cannot be decided is false. */
export function holds(compiled: CompiledExpression, scope: Scope): boolean {
  return evaluate(compiled.expr, scope);
}

/** The expression's value over the scope; throws EvaluationProblem when it cannot be evaluated. */
export function valueOfCompiled(compiled: CompiledExpression, scope: Scope): unknown {
  return valueOf(compiled.expr, scope);
}

/**
 * Parses with a bounded cache: documents and sites evaluate the same few expressions on every request.
 * A source that does not parse is remembered as null (and so is false, or empty text); one too long to
 * ever parse is not worth an entry.
 */
export class CompileCache {
  private readonly entries: LruCache<string, CompiledExpression | null>;

  constructor(
    private readonly dialect: Dialect,
    capacity = 1000,
  ) {
    this.entries = new LruCache(capacity);
  }

  get(source: string): CompiledExpression | null {
    if (source.length > MAX_EXPRESSION_LENGTH) return null;
    const hit = this.entries.get(source);
    if (hit !== undefined) return hit;
    let compiled: CompiledExpression | null = null;
    try {
      compiled = compile(source, this.dialect);
    } catch {
      // Not parseable: remembered as null.
    }
    this.entries.set(source, compiled);
    return compiled;
  }

  get size(): number {
    return this.entries.size;
  }
}
