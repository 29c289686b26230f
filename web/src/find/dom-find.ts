import type { FindCount, FindTarget } from './find-target.ts';

interface HighlightRegistry {
  set(name: string, highlight: unknown): void;
  delete(name: string): void;
}
type HighlightConstructor = new (...ranges: Range[]) => unknown;

/** The CSS Custom Highlight API where the browser has it (Chromium 105 and later): CSS.highlights and Highlight. */
function highlightApi(): { registry: HighlightRegistry; Highlight: HighlightConstructor } | null {
  const registry = (globalThis.CSS as unknown as { highlights?: HighlightRegistry } | undefined)?.highlights;
  const Highlight = (globalThis as unknown as { Highlight?: HighlightConstructor }).Highlight;
  return registry && Highlight ? { registry, Highlight } : null;
}

/**
 * Find in a page drawn read-only: its text nodes searched, the matches shown with the CSS Custom Highlight API
 * (ranges registered as `find-match` and `find-current`, styled by `::highlight()` rules in find-bar.css). Nothing
 * is added to the page (no <mark>, no style attribute: the Content-Security-Policy allows none), so the drawn
 * page is never touched. A browser without the API still counts, moves and scrolls to each match, and shows
 * the current one as the page's selection.
 */
export function domFindTarget(root: HTMLElement): FindTarget {
  let ranges: Range[] = [];
  let current = -1;
  const api = highlightApi();
  const count = (): FindCount => ({ count: ranges.length, current });
  const show = () => {
    if (api) {
      api.registry.set('find-match', new api.Highlight(...ranges));
      api.registry.set('find-current', new api.Highlight(...(ranges[current] ? [ranges[current]] : [])));
    }
    const range = ranges[current];
    if (!range) return;
    if (!api) {
      const selection = window.getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
    }
    (range.startContainer.parentElement ?? root).scrollIntoView({ block: 'center', inline: 'nearest' });
  };
  const clear = () => {
    api?.registry.delete('find-match');
    api?.registry.delete('find-current');
  };
  return {
    canReplace: () => false,
    search(query, caseSensitive) {
      ranges = [];
      current = -1;
      if (query) {
        const needle = caseSensitive ? query : query.toLowerCase();
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = caseSensitive ? node.nodeValue! : node.nodeValue!.toLowerCase();
          for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) {
            const range = document.createRange();
            range.setStart(node, index);
            range.setEnd(node, index + needle.length);
            ranges.push(range);
          }
        }
        current = ranges.length ? 0 : -1;
      }
      show();
      return count();
    },
    move(step) {
      if (ranges.length) current = (current + step + ranges.length) % ranges.length;
      show();
      return count();
    },
    replace: count,
    replaceAll: count,
    count,
    clear,
    focusBack: () => undefined,
    owns: (element) => root.contains(element),
    listen: () => () => undefined,
  };
}
