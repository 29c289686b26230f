import { CompileCache, valueOfCompiled, type Dialect } from './index.ts';

/**
 * Expressions in page content (`space.vars.version`, `page.vars.plan == "pro" ? "Pro" : "Free"`) and the
 * conditions of `if` blocks in pages (`visitor.claims.plan == "pro"`): the one expression language
 * (src/expressions/) over the revision's variables (`space.vars`), the page's own (`page.vars`) and, on a
 * published site, the visitor's claims (`visitor.claims`).
 */
export const PAGE_DIALECT: Dialect = {
  roots: ['space', 'page', 'visitor'],
  noun: 'expression',
  rootsHint: 'expressions read space.vars, page.vars and visitor.claims',
};

/** Variables as pages and spaces define them (src/content/nodes.ts): plain values by name. */
type Variables = Record<string, string | number | boolean | null>;

export interface ExpressionScope {
  space: { vars: Variables };
  page: { vars: Variables };
  /** The reader of a published page; absent where there is none (the API, the PDF). */
  visitor?: { claims: Record<string, unknown> };
}

type Value = string | number | boolean | null | undefined | Record<string, unknown>;

const parsed = new CompileCache(PAGE_DIALECT);

/** An expression's value; undefined when it cannot be read or evaluated. */
export function evaluateExpression(source: string, scope: ExpressionScope): Value {
  const compiled = parsed.get(source);
  if (!compiled) return undefined;
  try {
    return valueOfCompiled(compiled, scope) as Value;
  } catch {
    return undefined;
  }
}

/** An expression's value as text: empty for nothing (an unknown variable, or an expression that cannot be read). */
export function evaluateToText(source: string, scope: ExpressionScope): string {
  return display(evaluateExpression(source, scope));
}

/** An expression's value as a condition: false when it cannot be read. */
export function evaluateToBoolean(source: string, scope: ExpressionScope): boolean {
  return Boolean(evaluateExpression(source, scope));
}

function display(value: Value): string {
  if (value === null || value === undefined || typeof value === 'object') return '';
  return String(value);
}
