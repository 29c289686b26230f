import { ExpressionSyntaxError } from './errors.ts';

/**
 * Turns an expression into tokens. The language is a small subset of JavaScript expressions, so the tokens are
 * JavaScript's: names, numbers, quoted strings and the few operators the parser knows.
 */
export type TokenKind = 'name' | 'number' | 'string' | 'punct' | 'end';

export interface Token {
  kind: TokenKind;
  /** The name or operator as written, or the decoded string; '' at the end. */
  text: string;
  /** The value of a number token. */
  number?: number;
  /** 1-based position of the token's first character. */
  column: number;
}

// Longest first, so that "===" is not read as "==" then "=".
const PUNCTUATORS = ['===', '!==', '==', '!=', '<=', '>=', '&&', '||', '??', '<', '>', '!', '+', '-', '*', '/', '?', ':', '.', ',', '(', ')', '[', ']'];

const NAME_START = /[A-Za-z_$]/;
const NAME_PART = /[A-Za-z0-9_$]/;
const NUMBER = /^(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?/;
const SPACE = /\s/;

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    if (SPACE.test(ch)) {
      i++;
    } else if (NAME_START.test(ch)) {
      const start = i;
      while (i < source.length && NAME_PART.test(source[i])) i++;
      tokens.push({ kind: 'name', text: source.slice(start, i), column: start + 1 });
    } else if (/\d/.test(ch) || (ch === '.' && /\d/.test(source[i + 1] ?? ''))) {
      i = readNumber(source, i, tokens);
    } else if (ch === '"' || ch === "'") {
      i = readString(source, i, tokens);
    } else {
      const punct = PUNCTUATORS.find((p) => source.startsWith(p, i));
      if (!punct) throw unexpectedCharacter(ch, i + 1);
      tokens.push({ kind: 'punct', text: punct, column: i + 1 });
      i += punct.length;
    }
  }
  tokens.push({ kind: 'end', text: '', column: source.length + 1 });
  return tokens;
}

function unexpectedCharacter(ch: string, column: number): ExpressionSyntaxError {
  if (ch === '=') return new ExpressionSyntaxError('Unexpected "="', column, 'compare with "==" or "==="; an expression cannot assign');
  if (ch === '&' || ch === '|') return new ExpressionSyntaxError(`Unexpected "${ch}"`, column, `write "${ch}${ch}"`);
  return new ExpressionSyntaxError(`Unexpected character ${JSON.stringify(ch)}`, column);
}

function readNumber(source: string, start: number, tokens: Token[]): number {
  const text = NUMBER.exec(source.slice(start))![0];
  const end = start + text.length;
  // "10px" or "1.2.3" is a typo, not a number followed by something.
  if (end < source.length && (NAME_PART.test(source[end]) || (source[end] === '.' && /\d/.test(source[end + 1] ?? '')))) {
    throw new ExpressionSyntaxError(`Invalid number "${text}${source[end]}"`, start + 1);
  }
  tokens.push({ kind: 'number', text, number: Number(text), column: start + 1 });
  return end;
}

function readString(source: string, start: number, tokens: Token[]): number {
  const quote = source[start];
  let value = '';
  let i = start + 1;
  while (i < source.length && source[i] !== quote) {
    const ch = source[i];
    if (ch === '\n' || ch === '\r') break;
    if (ch !== '\\') {
      value += ch;
      i++;
      continue;
    }
    const [decoded, next] = readEscape(source, i);
    value += decoded;
    i = next;
  }
  if (source[i] !== quote) throw new ExpressionSyntaxError('Unterminated string', start + 1, `close it with ${quote}`);
  tokens.push({ kind: 'string', text: value, column: start + 1 });
  return i + 1;
}

/** Decodes the escape sequence at `at` (a backslash); returns the text and the index after it. */
function readEscape(source: string, at: number): [string, number] {
  const ch = source[at + 1];
  if (ch === undefined) throw new ExpressionSyntaxError('Unterminated string', at + 1);
  if (ch in SIMPLE_ESCAPES) return [SIMPLE_ESCAPES[ch], at + 2];
  if (ch === 'x') return [hexCharacter(at, source.slice(at + 2, at + 4), 2), at + 4];
  if (ch === 'u' && source[at + 2] === '{') {
    const close = source.indexOf('}', at + 3);
    const hex = close < 0 ? '' : source.slice(at + 3, close);
    return [hexCharacter(at, hex, hex.length || 1), close + 1];
  }
  if (ch === 'u') return [hexCharacter(at, source.slice(at + 2, at + 6), 4), at + 6];
  // As in JavaScript, any other escaped character stands for itself (\" \' \\ \/ …).
  return [ch, at + 2];
}

function hexCharacter(at: number, hex: string, length: number): string {
  const code = /^[0-9A-Fa-f]+$/.test(hex) && hex.length === length ? parseInt(hex, 16) : NaN;
  if (!(code <= 0x10ffff)) throw new ExpressionSyntaxError('Invalid escape sequence in string', at + 1);
  return String.fromCodePoint(code);
}
