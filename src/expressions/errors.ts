/**
 * An expression that cannot be read. The message always names the 1-based column (the character position in
 * the expression, counting from 1) where the problem is, so an author can find it in a long expression:
 * `Unknown name "foo" at column 1: conditions read the visitor's claims, e.g. visitor.claims.plan.`
 */
export class ExpressionSyntaxError extends Error {
  constructor(
    /** What is wrong, e.g. `Expected ")"`. */
    readonly problem: string,
    readonly column: number,
    /** How to put it right, when there is more to say. */
    readonly hint?: string,
  ) {
    super(`${problem} at column ${column}${hint ? `: ${hint}` : ''}.`);
    this.name = 'ExpressionSyntaxError';
  }
}
