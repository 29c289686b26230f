/**
 * How deeply a YAML text nests its values, found by one pass over the text before any parser sees it: the
 * YAML parser recurses once per level, and a document nested thousands deep (`[[[[…` in a few kilobytes, or
 * `- - - - …` on one line) exhausts the stack, which V8 does not always survive (a regular expression
 * compiled near the limit aborts the process). Callers refuse a text deeper than their limit.
 *
 * Counted: flow collections (`[` and `{` outside quotes and comments), the block levels opened by
 * indentation, and compact block nodes on one line (`- - x`, `? - x`). An overestimate is harmless: it
 * only has to be at least the parser's depth.
 */
export function yamlDepth(text: string): number {
  let deepest = 0;
  let flow = 0;
  const indents: number[] = [];
  for (const line of text.split('\n')) {
    const indent = line.length - line.trimStart().length;
    const rest = line.slice(indent);
    if (flow === 0 && rest !== '' && !rest.startsWith('#')) {
      while (indents.length > 0 && indents[indents.length - 1] >= indent) indents.pop();
      indents.push(indent);
      const compact = /^(?:[-?:][ \t]+)*/.exec(rest)![0].replace(/[ \t]/g, '').length;
      deepest = Math.max(deepest, indents.length + compact);
    }
    let quote: string | null = null;
    for (let i = 0; i < rest.length; i++) {
      const c = rest[i];
      if (quote) {
        if (quote === '"' && c === '\\') i++;
        else if (c === quote) quote = null;
        continue;
      }
      if (c === '#' && (i === 0 || rest[i - 1] === ' ' || rest[i - 1] === '\t')) break;
      if (c === '"' || c === "'") quote = c;
      else if (c === '[' || c === '{') deepest = Math.max(deepest, indents.length + ++flow);
      else if ((c === ']' || c === '}') && flow > 0) flow--;
    }
  }
  return deepest;
}
