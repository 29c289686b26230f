import { gemoji } from 'gemoji';

/**
 * GitBook's emoji shortcodes (`:grinning:`, `:+1:`, `:white_check_mark:`): GitBook writes an emoji inline
 * in Markdown text as its shortcode, the names of GitHub's gemoji set, and reads them back as the emoji.
 * A name that is no emoji (`:foo:`, `12:30:45`) stays text. Codes are the emoji's code points in hex
 * joined with "-", without the variation selector FE0F, as GitBook's `data-code` has them.
 */

let byName: Map<string, string> | undefined;

function codes(): Map<string, string> {
  if (!byName) {
    byName = new Map();
    for (const entry of gemoji) {
      const code = [...entry.emoji].map((char) => char.codePointAt(0)!).filter((point) => point !== 0xfe0f).map((point) => point.toString(16)).join('-');
      for (const name of entry.names) byName.set(name, code);
    }
  }
  return byName;
}

/** The emoji code of a shortcode's name (`grinning` → `1f600`), or undefined. */
export function shortcodeEmoji(name: string): string | undefined {
  return codes().get(name);
}

const SHORTCODE = /:([a-z0-9_+-]+):/g;

/** Text split into its runs of text and the emoji its shortcodes name, in order. */
export function splitShortcodes(text: string): Array<string | { code: string }> {
  if (!text.includes(':')) return [text];
  const out: Array<string | { code: string }> = [];
  let from = 0;
  for (const match of text.matchAll(SHORTCODE)) {
    const code = shortcodeEmoji(match[1]);
    if (!code) continue;
    if (match.index > from) out.push(text.slice(from, match.index));
    out.push({ code });
    from = match.index + match[0].length;
  }
  if (from < text.length) out.push(text.slice(from));
  return out.length > 0 ? out : [text];
}
