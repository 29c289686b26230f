import { FORBIDDEN_PROPERTIES, type ArithmeticOperator, type Expr, type MethodName, type RelationalOperator, type RootName } from './ast.ts';

/** What the roots of an expression stand for; a root that is absent reads as undefined. */
export type Scope = Partial<Record<RootName, unknown>>;

/** An expression that cannot be evaluated over this scope (a method or operator on the wrong kind of value). */
export class EvaluationProblem extends Error {}

/**
 * The truthiness of a parsed expression. Never throws: any problem makes it false, so content behind a
 * condition that cannot be decided stays hidden (fail closed).
 */
export function evaluate(expr: Expr, scope: Scope): boolean {
  try {
    return Boolean(valueOf(expr, scope));
  } catch {
    return false;
  }
}

/** The value of a parsed expression; throws EvaluationProblem when it cannot be evaluated. */
export function valueOf(expr: Expr, scope: Scope): unknown {
  switch (expr.type) {
    case 'literal':
      return expr.value;
    case 'array':
      return expr.elements.map((element) => valueOf(element, scope));
    case 'root':
      return Object.hasOwn(scope, expr.name) ? scope[expr.name] : undefined;
    case 'property':
      return readProperty(valueOf(expr.object, scope), expr.name);
    case 'index':
      return readComputed(valueOf(expr.object, scope), valueOf(expr.key, scope));
    case 'call':
      return callMethod(valueOf(expr.object, scope), expr.method, valueOf(expr.argument, scope));
    case 'not':
      return !valueOf(expr.operand, scope);
    case 'negate':
      return negate(valueOf(expr.operand, scope));
    case 'equality':
      return equality(expr.operator, valueOf(expr.left, scope), valueOf(expr.right, scope));
    case 'relational':
      return compare(expr.operator, valueOf(expr.left, scope), valueOf(expr.right, scope));
    case 'arithmetic':
      return arithmetic(expr.operator, valueOf(expr.left, scope), valueOf(expr.right, scope));
    case 'logical': {
      // Short-circuits and yields an operand, as JavaScript does.
      const left = valueOf(expr.left, scope);
      if (expr.operator === '&&') return left ? valueOf(expr.right, scope) : left;
      if (expr.operator === '??') return left ?? valueOf(expr.right, scope);
      return left ? left : valueOf(expr.right, scope);
    }
    case 'conditional':
      return valueOf(expr.test, scope) ? valueOf(expr.consequent, scope) : valueOf(expr.alternate, scope);
  }
}

/**
 * `+` joins when either side is a string (numbers and booleans written as text; nothing else), and adds
 * two numbers; `-`, `*` and `/` take two numbers. No other coercion: anything else is a problem.
 */
function arithmetic(operator: ArithmeticOperator, left: unknown, right: unknown): string | number {
  if (operator === '+' && (typeof left === 'string' || typeof right === 'string')) return asText(left) + asText(right);
  if (typeof left !== 'number' || typeof right !== 'number') throw new EvaluationProblem(`"${operator}" needs two numbers`);
  switch (operator) {
    case '+':
      return left + right;
    case '-':
      return left - right;
    case '*':
      return left * right;
    case '/':
      return left / right;
  }
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new EvaluationProblem('"+" joins text with strings, numbers and booleans only');
}

/**
 * Reads a property as optional chaining would: anything missing is undefined. Only data is read: own data
 * properties of objects and arrays (never inherited ones, getters or functions), and `length` of arrays
 * and strings.
 */
export function readProperty(target: unknown, name: string): unknown {
  if (FORBIDDEN_PROPERTIES.has(name)) return undefined;
  if (typeof target === 'string') return name === 'length' ? target.length : undefined;
  if (target === null || typeof target !== 'object') return undefined;
  if (Array.isArray(target) && name === 'length') return target.length;
  const descriptor = Object.getOwnPropertyDescriptor(target, name);
  if (!descriptor || !('value' in descriptor) || typeof descriptor.value === 'function') return undefined;
  return descriptor.value;
}

/** `object[key]` with a key computed while evaluating: only strings and numbers name properties. */
function readComputed(target: unknown, key: unknown): unknown {
  if (typeof key === 'string') return readProperty(target, key);
  if (typeof key === 'number' && Number.isFinite(key)) return readProperty(target, String(key));
  return undefined;
}

function callMethod(target: unknown, method: MethodName, argument: unknown): boolean {
  if (method === 'includes' && Array.isArray(target)) return target.some((item) => sameValueZero(item, argument));
  if (typeof target !== 'string' || typeof argument !== 'string') {
    throw new EvaluationProblem(`.${method}() needs a string (or, for includes, an array)`);
  }
  if (method === 'includes') return target.includes(argument);
  if (method === 'startsWith') return target.startsWith(argument);
  return target.endsWith(argument);
}

function negate(value: unknown): number {
  if (typeof value !== 'number') throw new EvaluationProblem('Only a number can be negated');
  return -value;
}

/** `==` is strict equality, except that null and undefined are equal to each other (no type coercion). */
function equality(operator: string, left: unknown, right: unknown): boolean {
  const strict = left === right;
  switch (operator) {
    case '===':
      return strict;
    case '!==':
      return !strict;
    case '==':
      return strict || (left == null && right == null);
    default:
      return !(strict || (left == null && right == null));
  }
}

/** Orders two numbers or two strings; any other pair is not ordered, so every comparison of it is false. */
function compare(operator: RelationalOperator, left: unknown, right: unknown): boolean {
  const comparable = (typeof left === 'number' && typeof right === 'number') || (typeof left === 'string' && typeof right === 'string');
  if (!comparable) return false;
  const [a, b] = [left, right] as [number | string, number | string];
  switch (operator) {
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}

function sameValueZero(a: unknown, b: unknown): boolean {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}
