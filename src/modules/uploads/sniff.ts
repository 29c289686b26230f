import { BadRequest } from '../../errors.ts';
import { contentTypeOf } from '../../imports/types.ts';

/**
 * What a file uploaded into a space is, decided from its bytes rather than from what the sender says
 * (content sniffing): a picture is kept as a picture only when its bytes are one (PNG, JPEG, GIF, WebP,
 * AVIF, BMP), and its type comes from those bytes; anything else keeps the type its name gives, among
 * the kinds a documentation space holds (PDF, text, data, archives, office files, audio and video).
 * Types a browser would run (HTML, SVG, XML, JavaScript) are refused: the space's files are served from
 * Quire's own origin, and a file there must never be a page with script in it.
 */

/** The largest file one upload may hold, in bytes. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

/** The longest file name, in characters. */
export const MAX_FILE_NAME = 200;

interface Signature {
  type: string;
  test: (bytes: Buffer) => boolean;
}

const ascii = (bytes: Buffer, at: number, text: string) => bytes.length >= at + text.length && bytes.toString('latin1', at, at + text.length) === text;

const IMAGES: Signature[] = [
  { type: 'image/png', test: (b) => b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a },
  { type: 'image/jpeg', test: (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/gif', test: (b) => ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a') },
  { type: 'image/webp', test: (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP') },
  { type: 'image/avif', test: (b) => ascii(b, 4, 'ftypavif') || ascii(b, 4, 'ftypavis') },
  { type: 'image/bmp', test: (b) => ascii(b, 0, 'BM') && b.length >= 26 },
];

/** Kinds kept by name (their bytes cannot run in a browser that honours the download's headers). */
const BY_NAME = new Set([
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/json',
  'application/yaml',
  'application/zip',
  'video/mp4',
  'video/webm',
  'video/quicktime',
  'audio/mpeg',
  'audio/wav',
  'audio/ogg',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
]);

/** Refused whatever their name says: a browser runs them. */
const ACTIVE = /^\s*(<\?xml|<!doctype html|<html|<svg|<script|<body|<iframe)/i;

export interface Sniffed {
  contentType: string;
  dimensions?: { width: number; height: number };
}

/** The type of an upload from its bytes and name; 400 saying why when it may not be kept. */
export function sniffUpload(name: string, bytes: Buffer): Sniffed {
  if (bytes.length === 0) throw new BadRequest(`The file "${name}" is empty: send its bytes as the body of the request.`);
  const image = IMAGES.find((signature) => signature.test(bytes));
  if (image) {
    const dimensions = dimensionsOf(image.type, bytes);
    return { contentType: image.type, ...(dimensions ? { dimensions } : {}) };
  }
  const byName = contentTypeOf(name, '');
  if (byName.startsWith('image/')) {
    throw new BadRequest(`The file "${name}" is named as a picture (${byName}) but its bytes are not a PNG, JPEG, GIF, WebP, AVIF or BMP image; SVG and other formats are not taken as pictures.`);
  }
  if (ACTIVE.test(bytes.subarray(0, 512).toString('latin1'))) {
    throw new BadRequest(`The file "${name}" holds HTML, SVG or XML, which a browser would run; upload it as a .zip, or paste its text into a code block.`);
  }
  if (byName === 'application/pdf' && !ascii(bytes, 0, '%PDF-')) throw new BadRequest(`The file "${name}" is named as a PDF but its bytes are not one.`);
  if (BY_NAME.has(byName)) return { contentType: byName };
  throw new BadRequest(
    `The file "${name}" is of a kind a space does not hold (${byName || 'no known extension'}). Upload pictures (PNG, JPEG, GIF, WebP, AVIF), PDF, text, CSV, JSON, YAML, zip, office documents, audio or video.`,
  );
}

/** Width and height of a PNG or GIF (the two whose header holds them at a fixed place). */
function dimensionsOf(type: string, bytes: Buffer): { width: number; height: number } | undefined {
  if (type === 'image/png' && bytes.length >= 24 && ascii(bytes, 12, 'IHDR')) return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (type === 'image/gif' && bytes.length >= 10) return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  return undefined;
}

/** A file name as kept: the last segment of a path, without control characters; 400 when nothing is left. */
export function cleanFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const base = name.split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (!base || base === '.' || base === '..') throw new BadRequest('The query parameter "name" must be a file name, such as "diagram.png".');
  return base.slice(0, MAX_FILE_NAME);
}
