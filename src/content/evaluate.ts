import { evaluateToBoolean, evaluateToText, type ExpressionScope } from '../expressions/page.ts';

/** A node of the JSON document model, loosely: what evaluation needs to walk it. */
interface DocumentNode {
  object?: string;
  type?: string;
  data?: { expression?: unknown } & Record<string, unknown>;
  nodes?: DocumentNode[];
  fragments?: DocumentNode[];
  [key: string]: unknown;
}

/**
 * Evaluates a document's expressions against the variables in scope, returning a new document:
 * - an inline expression becomes plain text with its value;
 * - an `if` block is replaced by its content when its condition holds, and removed when it does not.
 * The document given is not changed.
 */
export function evaluateDocument<T>(document: T, scope: ExpressionScope, options: EvaluateOptions = {}): T {
  return evaluateNode(document as DocumentNode, scope, options) as T;
}

export interface EvaluateOptions {
  /**
   * Keep every `if` block, whatever its condition (their contents evaluated): for a member's export, which
   * shows each branch marked with the readers who see it.
   */
  keepIfBlocks?: boolean;
}

function evaluateNode(node: DocumentNode, scope: ExpressionScope, options: EvaluateOptions): DocumentNode {
  const copy: DocumentNode = { ...node };
  if (Array.isArray(node.nodes)) copy.nodes = evaluateChildren(node.nodes, scope, options);
  if (Array.isArray(node.fragments)) copy.fragments = node.fragments.map((fragment) => evaluateNode(fragment, scope, options));
  return copy;
}

function evaluateChildren(children: DocumentNode[], scope: ExpressionScope, options: EvaluateOptions): DocumentNode[] {
  const out: DocumentNode[] = [];
  for (const child of children) {
    const expression = typeof child.data?.expression === 'string' ? child.data.expression : undefined;
    if (child.object === 'inline' && child.type === 'expression' && expression !== undefined) {
      out.push({ object: 'text', leaves: [{ object: 'leaf', text: evaluateToText(expression, scope), marks: [] }] });
    } else if (child.object === 'block' && child.type === 'if' && expression !== undefined && !options.keepIfBlocks) {
      if (evaluateToBoolean(expression, scope)) out.push(...evaluateChildren(child.nodes ?? [], scope, options));
    } else {
      out.push(evaluateNode(child, scope, options));
    }
  }
  return out;
}

/** The expressions a document holds: the conditions of its `if` blocks and its inline expressions. */
export interface DocumentExpressions {
  conditions: string[];
  inline: string[];
}

/** Collects a document's expressions (each once), in `if` blocks at any depth, fragments included. */
export function expressionsOf(document: unknown, into: DocumentExpressions = { conditions: [], inline: [] }): DocumentExpressions {
  const conditions = new Set(into.conditions);
  const inline = new Set(into.inline);
  const visit = (node: DocumentNode) => {
    const expression = typeof node.data?.expression === 'string' ? node.data.expression : undefined;
    if (expression !== undefined && node.object === 'block' && node.type === 'if') conditions.add(expression);
    if (expression !== undefined && node.object === 'inline' && node.type === 'expression') inline.add(expression);
    if (Array.isArray(node.nodes)) node.nodes.forEach(visit);
    if (Array.isArray(node.fragments)) node.fragments.forEach(visit);
  };
  visit(document as DocumentNode);
  return { conditions: [...conditions], inline: [...inline] };
}

/**
 * What a reader's scope makes of a document's expressions, as one string: two readers for whom it is the
 * same see the same evaluated document, so a page made for one can be served to the other.
 */
export function outcomesOf(expressions: DocumentExpressions, scope: ExpressionScope): string {
  const parts: string[] = expressions.conditions.map((source) => (evaluateToBoolean(source, scope) ? '1' : '0'));
  for (const source of expressions.inline) parts.push(JSON.stringify(evaluateToText(source, scope)));
  return parts.join(',');
}
