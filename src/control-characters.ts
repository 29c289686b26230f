/** The C0 control characters a client's text may not hold (tab, line feed and carriage return are text): src/http/text-rules.ts. */
export const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

/**
 * Text with each control character replaced by U+FFFD, for records kept of a request that the text rules
 * refuse (the audit trail's entry of a refused write): PostgreSQL cannot store NUL in text.
 */
export function replaceControlCharacters(text: string): string {
  return text.replace(new RegExp(CONTROL.source, 'g'), '\uFFFD');
}
