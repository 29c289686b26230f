/** The tree an expression parses into; evaluate.ts walks it. Plain data, so it can be cached and shared. */
export type Literal = string | number | boolean | null | undefined;

/**
 * The names an expression may start from. Each use of the language allows some: site conditions read
 * `visitor`; expressions and `if` blocks in pages read `space`, `page` and `visitor`.
 */
export type RootName = 'visitor' | 'space' | 'page';
export const ROOT_NAMES: readonly RootName[] = ['visitor', 'space', 'page'];

export type MethodName = 'includes' | 'startsWith' | 'endsWith';
export type EqualityOperator = '==' | '!=' | '===' | '!==';
export type RelationalOperator = '<' | '<=' | '>' | '>=';
export type ArithmeticOperator = '+' | '-' | '*' | '/';

export type Expr =
  | { type: 'literal'; value: Literal }
  | { type: 'array'; elements: Expr[] }
  /** A root of the scope (`visitor`, `space`, `page`). */
  | { type: 'root'; name: RootName }
  /** `object.name` or `object["name"]`: a property known when parsing. */
  | { type: 'property'; object: Expr; name: string }
  /** `object[expression]`: a property computed when evaluating. */
  | { type: 'index'; object: Expr; key: Expr }
  | { type: 'call'; object: Expr; method: MethodName; argument: Expr }
  | { type: 'not'; operand: Expr }
  | { type: 'negate'; operand: Expr }
  | { type: 'equality'; operator: EqualityOperator; left: Expr; right: Expr }
  | { type: 'relational'; operator: RelationalOperator; left: Expr; right: Expr }
  | { type: 'arithmetic'; operator: ArithmeticOperator; left: Expr; right: Expr }
  | { type: 'logical'; operator: '&&' | '||' | '??'; left: Expr; right: Expr }
  | { type: 'conditional'; test: Expr; consequent: Expr; alternate: Expr };

/**
 * Names never read, at parse time (written as a name or a quoted key) and again when evaluating (computed
 * keys): they lead from data to JavaScript's machinery.
 */
export const FORBIDDEN_PROPERTIES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export const METHODS: ReadonlySet<string> = new Set<MethodName>(['includes', 'startsWith', 'endsWith']);
