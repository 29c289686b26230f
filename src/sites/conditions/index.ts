import { BadRequest } from '../../errors.ts';
import type { Expr } from './ast.ts';
import { BoundedCache } from './cache.ts';
import { ConditionSyntaxError } from './errors.ts';
import { evaluate, type ConditionScope } from './evaluate.ts';
import { MAX_CONDITION_LENGTH, parse } from './parser.ts';

/**
 * Conditions of adaptive content: the `condition` of a site section or site space, a small JavaScript-like
 * expression over the visitor's claims (`visitor.claims.plan === "enterprise" && !visitor.claims.trial`).
 * It is parsed into a tree and interpreted; nothing is ever handed to eval.
 */
export { ConditionSyntaxError } from './errors.ts';
export { MAX_CONDITION_DEPTH, MAX_CONDITION_LENGTH } from './parser.ts';
export type { ConditionScope } from './evaluate.ts';

/** A parsed condition. Opaque to callers: pass it to evaluateCondition. */
export interface CompiledCondition {
  readonly source: string;
  /** @internal */
  readonly expr: Expr;
}

export function parseCondition(source: string): CompiledCondition {
  return { source, expr: parse(source) };
}

/** Checks a condition being saved; a condition that does not parse is a 400 saying where and why. */
export function checkCondition(source: string): void {
  try {
    parse(source);
  } catch (error) {
    if (error instanceof ConditionSyntaxError) throw new BadRequest(`The condition is not valid: ${error.message}`);
    throw error;
  }
}

/** Whether the condition holds for this visitor. Never throws: a condition that cannot be decided is false. */
export function evaluateCondition(compiled: CompiledCondition, scope: ConditionScope): boolean {
  return evaluate(compiled.expr, scope);
}

// Sites evaluate the same few conditions on every request, so parsed conditions (and failures, as null) are
// remembered; the bound keeps a stream of distinct conditions from growing memory.
const CACHE_CAPACITY = 1000;
const parsed = new BoundedCache<CompiledCondition | null>(CACHE_CAPACITY);

/**
 * Whether content behind `source` is shown to a visitor with these claims. No condition shows it; a
 * condition that does not parse (saved before a rule changed, say) hides it.
 */
export function conditionHolds(source: string | null | undefined, claims: Record<string, unknown>): boolean {
  if (source === null || source === undefined || source === '') return true;
  const compiled = cachedParse(source);
  return compiled !== null && evaluateCondition(compiled, { visitor: { claims } });
}

function cachedParse(source: string): CompiledCondition | null {
  // Too long to ever parse: not worth a cache entry of that size.
  if (source.length > MAX_CONDITION_LENGTH) return null;
  const hit = parsed.get(source);
  if (hit !== undefined) return hit;
  let compiled: CompiledCondition | null = null;
  try {
    compiled = parseCondition(source);
  } catch {
    // Not parseable: remembered as null, and the condition is false.
  }
  parsed.set(source, compiled);
  return compiled;
}

/** How many parsed conditions are remembered (for tests of the bound). */
export function conditionCacheSize(): number {
  return parsed.size;
}
