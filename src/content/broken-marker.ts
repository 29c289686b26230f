/**
 * GitBook's marker for a reference whose target it lost: it writes `/broken/pages/<id>` (or `files`, `spaces`) in
 * place of the address. A source keeps the marker byte for byte; the published site shows it as a broken link and
 * the link analysis counts it as one (an address under the site would otherwise be taken for one of its pages).
 */
export function isBrokenMarker(url: string): boolean {
  return /^\/broken\/(pages|files|spaces)\/[^/?#]+$/.test(url);
}
