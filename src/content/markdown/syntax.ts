/**
 * The one syntax extension the page format needs on top of CommonMark, GFM, math and front matter:
 * a *tag line*, a line that starts with a tag (`{% hint … %}`, `{% endtabs %}`, any other `{% … %}`) or
 * with `<details>`, `</details>` or `<summary>`. It is a flow construct of its own, so it interrupts a
 * paragraph and is never swallowed as the lazy continuation of a list item or a quote, and it is not
 * read inside fenced code. The tree gets one `tagLine` node per such line; parse-groups.ts reads it.
 */
import type { Code, Construct, Effects, Extension as SyntaxExtension, State, TokenizeContext } from 'micromark-util-types';
import type { Extension as FromMarkdownExtension } from 'mdast-util-from-markdown';
import type { Literal } from 'mdast';
import type { Processor } from 'unified';

/** A line made of block tags (and possibly Markdown between them), as written. */
export interface TagLine extends Literal {
  type: 'tagLine';
}

declare module 'mdast' {
  interface RootContentMap {
    tagLine: TagLine;
  }
  interface BlockContentMap {
    tagLine: TagLine;
  }
}

declare module 'micromark-util-types' {
  interface TokenTypeMap {
    tagLine: 'tagLine';
  }
}

const LEFT_BRACE = 123;
const PERCENT = 37;
const LESS_THAN = 60;
const GREATER_THAN = 62;
const SLASH = 47;

function isSpace(code: Code): boolean {
  return code === 32 || code === -2 || code === -1;
}
function isLineEnd(code: Code): boolean {
  return code === null || code === -5 || code === -4 || code === -3;
}
function isNameCharacter(code: Code): code is number {
  return code !== null && ((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 45 || code === 95);
}

function tokenizeTagLine(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
  let name = '';
  let closing = false;

  const start: State = (code) => {
    if (code !== LEFT_BRACE && code !== LESS_THAN) return nok(code);
    effects.enter('tagLine');
    effects.consume(code);
    return code === LEFT_BRACE ? percent : htmlStart;
  };
  const percent: State = (code) => {
    if (code !== PERCENT) return nok(code);
    effects.consume(code);
    return rest;
  };
  const htmlStart: State = (code) => {
    if (code === SLASH && !closing && name === '') {
      closing = true;
      effects.consume(code);
      return htmlStart;
    }
    if (isNameCharacter(code)) {
      name += String.fromCharCode(code).toLowerCase();
      effects.consume(code);
      return htmlStart;
    }
    const known = name === 'details' || (name === 'summary' && !closing);
    return known && (code === GREATER_THAN || isSpace(code)) ? rest(code) : nok(code);
  };
  const rest: State = (code) => {
    if (isLineEnd(code)) {
      effects.exit('tagLine');
      return ok(code);
    }
    effects.consume(code);
    return rest;
  };
  return start;
}

const tagLine: Construct = { name: 'tagLine', tokenize: tokenizeTagLine };

/** The micromark side: tag lines start with `{` or `<`, tried before HTML blocks. */
export const tagLineSyntax: SyntaxExtension = { flow: { [LEFT_BRACE]: tagLine, [LESS_THAN]: tagLine } };

/** The tree side: one `tagLine` node holding the line's text. */
export const tagLineFromMarkdown: FromMarkdownExtension = {
  enter: {
    tagLine(token) {
      this.enter({ type: 'tagLine', value: '' }, token);
    },
  },
  exit: {
    tagLine(token) {
      const node = this.stack[this.stack.length - 1];
      if (node.type === 'tagLine') node.value = this.sliceSerialize(token);
      this.exit(token);
    },
  },
};

/** A unified plugin that adds tag lines to remark-parse. */
export function remarkTagLines(this: Processor): undefined {
  const data = this.data();
  (data.micromarkExtensions ??= []).push(tagLineSyntax);
  (data.fromMarkdownExtensions ??= []).push(tagLineFromMarkdown);
}
