/**
 * Percent-decodes text found in a URL or path; text that is not valid percent-encoding is kept as it is
 * (a link written by hand may hold a literal `%`).
 */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
