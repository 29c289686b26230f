/**
 * Emoji by shortcode (`:tada:`), from gemoji, the set GitBook's Markdown names them by: loaded in a chunk of
 * its own when an editor opens for writing, so the `:name:` shortcut knows every name once it has loaded.
 * Codes are the emoji's code points in hex joined with "-", without the variation selector FE0F (as the
 * document model and the server's importer write them).
 */
let names: Map<string, string> | null = null;
let loading: Promise<Map<string, string>> | null = null;

export function loadEmoji(): Promise<Map<string, string>> {
  loading ??= import('gemoji').then(({ gemoji }) => {
    const map = new Map<string, string>();
    for (const entry of gemoji) for (const name of entry.names) map.set(name, entry.emoji);
    names = map;
    return map;
  });
  return loading;
}

/** The emoji named, when the names have loaded. */
export function emojiByName(name: string): string | undefined {
  return names?.get(name);
}

export function emojiCode(emoji: string): string {
  return [...emoji].map((char) => char.codePointAt(0)!).filter((point) => point !== 0xfe0f).map((point) => point.toString(16)).join('-');
}

export function emojiOfCode(code: string): string {
  try {
    return String.fromCodePoint(...code.split('-').map((part) => parseInt(part, 16)));
  } catch {
    return code;
  }
}

/** What a person wrote in the emoji field (the emoji itself, or its `:name:` / name) as a code; null if none. */
export async function emojiFromInput(input: string): Promise<string | null> {
  const text = input.trim();
  if (!text) return null;
  const name = /^:?([\w+-]+):?$/.exec(text)?.[1];
  if (name) {
    const found = (await loadEmoji()).get(name);
    return found ? emojiCode(found) : null;
  }
  return /\p{Extended_Pictographic}|\p{Regional_Indicator}/u.test(text) ? emojiCode(text) : null;
}
