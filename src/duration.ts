/** Units of a written duration, in milliseconds. */
const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * A duration written as a whole number and a unit: `90s`, `15m`, `12h`, `30d`, `2w` (seconds, minutes,
 * hours, days, weeks); `0` alone is zero. Answers milliseconds, or undefined when the text is not one.
 */
export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d{1,9})\s*([smhdw])?\s*$/.exec(text);
  if (!match) return undefined;
  const amount = Number(match[1]);
  if (!match[2]) return amount === 0 ? 0 : undefined;
  return amount * UNITS[match[2]];
}
