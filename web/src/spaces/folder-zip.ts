/**
 * A folder chosen in the browser, packed as a zip (entries stored, not compressed) so that the import takes it
 * as it takes an uploaded zip: the server reads a folder and a zip the same way (`SUMMARY.md`, `.gitbook.yaml`,
 * or folders and `README.md` files).
 */

/** Folders never imported: a repository's own data and installed packages. */
const SKIPPED = new Set(['.git', 'node_modules']);

let table: Uint32Array | null = null;

function crc32(bytes: Uint8Array): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = table[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A file's path inside the chosen folder ("guides/install.md"), without the folder's own name; null to skip it. */
export function pathInFolder(file: File): string | null {
  const parts = (file.webkitRelativePath || file.name).split('/').filter(Boolean);
  const inside = parts.length > 1 ? parts.slice(1) : parts;
  if (inside.some((part) => SKIPPED.has(part))) return null;
  return inside.join('/');
}

/** The files of a folder as one zip archive (ZIP 2.0, UTF-8 names, no compression). */
export async function zipFolder(files: File[]): Promise<Blob> {
  const encoder = new TextEncoder();
  const parts: BlobPart[] = [];
  const central: Uint8Array<ArrayBuffer>[] = [];
  let offset = 0;
  let count = 0;
  for (const file of files) {
    const path = pathInFolder(file);
    if (!path) continue;
    const name = new Uint8Array(encoder.encode(path));
    const data = new Uint8Array(await file.arrayBuffer());
    const crc = crc32(data);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(6, 0x0800, true); // names in UTF-8
    local.setUint16(8, 0, true); // stored
    local.setUint32(14, crc, true);
    local.setUint32(18, data.length, true);
    local.setUint32(22, data.length, true);
    local.setUint16(26, name.length, true);
    parts.push(local.buffer, name, data);
    const entry = new DataView(new ArrayBuffer(46));
    entry.setUint32(0, 0x02014b50, true);
    entry.setUint16(4, 20, true);
    entry.setUint16(6, 20, true);
    entry.setUint16(8, 0x0800, true);
    entry.setUint32(16, crc, true);
    entry.setUint32(20, data.length, true);
    entry.setUint32(24, data.length, true);
    entry.setUint16(28, name.length, true);
    entry.setUint32(42, offset, true);
    central.push(new Uint8Array(entry.buffer), name);
    offset += 30 + name.length + data.length;
    count++;
  }
  if (count === 0) throw new Error('The folder holds no file to import.');
  const centralSize = central.reduce((size, part) => size + part.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, count, true);
  end.setUint16(10, count, true);
  end.setUint32(12, centralSize, true);
  end.setUint32(16, offset, true);
  return new Blob([...parts, ...central, end.buffer], { type: 'application/zip' });
}
