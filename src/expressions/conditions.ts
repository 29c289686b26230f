import { BadRequest } from '../errors.ts';
import { CompileCache, compile, ExpressionSyntaxError, holds, type CompiledExpression, type Dialect } from './index.ts';

/**
 * Conditions of adaptive content: the `condition` of a site section or site space, an expression of the
 * one language (src/expressions/) over the visitor's claims only
 * (`visitor.claims.plan === "enterprise" && !visitor.claims.trial`).
 */
export const CONDITION_DIALECT: Dialect = { roots: ['visitor'], noun: 'condition', rootsHint: "conditions read the visitor's claims, e.g. visitor.claims.plan" };

export { ExpressionSyntaxError as ConditionSyntaxError } from './index.ts';
export { MAX_EXPRESSION_DEPTH as MAX_CONDITION_DEPTH, MAX_EXPRESSION_LENGTH as MAX_CONDITION_LENGTH } from './index.ts';

export interface ConditionScope {
  visitor: { claims: Record<string, unknown> };
}

export function parseCondition(source: string): CompiledExpression {
  return compile(source, CONDITION_DIALECT);
}

/** Checks a condition being saved; a condition that does not parse is a 400 saying where and why. */
export function checkCondition(source: string): void {
  try {
    parseCondition(source);
  } catch (error) {
    if (error instanceof ExpressionSyntaxError) throw new BadRequest(`The condition is not valid: ${error.message}`);
    throw error;
  }
}

/** Whether the condition holds for this visitor. Never throws: a condition that cannot be decided is false. */
export function evaluateCondition(compiled: CompiledExpression, scope: ConditionScope): boolean {
  return holds(compiled, scope);
}

const parsed = new CompileCache(CONDITION_DIALECT);

/**
 * Whether content behind `source` is shown to a visitor with these claims. No condition shows it; a
 * condition that does not parse (saved before a rule changed, say) hides it.
 */
export function conditionHolds(source: string | null | undefined, claims: Record<string, unknown>): boolean {
  if (source === null || source === undefined || source === '') return true;
  const compiled = parsed.get(source);
  return compiled !== null && holds(compiled, { visitor: { claims } });
}

/** How many parsed conditions are remembered (for tests of the bound). */
export function conditionCacheSize(): number {
  return parsed.size;
}
