import type { Length } from './types.ts';

/** A size written in HTML (`300`, `50%`, `12em`): pixels as a number, anything else with its unit. */
export function lengthOf(value: string | undefined): Length | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z%]*)\s*$/i.exec(value ?? '');
  if (!match) return undefined;
  return match[2] === '' ? Number(match[1]) : { unit: match[2], value: Number(match[1]) };
}

/** A size as HTML writes it back. */
export function writeLength(length: Length): string {
  return typeof length === 'number' ? String(length) : `${length.value}${length.unit}`;
}
