import type { Readable, Writable } from 'node:stream';
import { once } from 'node:events';

/**
 * The small part of the tar format (POSIX ustar) that backups need: regular files with names under 100
 * bytes, written and read as streams. Written by hand because it is this small; the files open with
 * `tar -xzf` as well.
 */
const BLOCK = 512;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number, mtime: Date): Buffer {
  if (Buffer.byteLength(name) > 99) throw new Error(`The backup entry name "${name}" is too long.`);
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 'utf8');
  block.write(octal(0o600, 8), 100);
  block.write(octal(0, 8), 108);
  block.write(octal(0, 8), 116);
  block.write(octal(size, 12), 124);
  block.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136);
  block.write('        ', 148); // the checksum counts its own field as spaces
  block.write('0', 156);
  block.write('ustar\0' + '00', 257, 'latin1');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(octal(sum, 7) + ' ', 148);
  return block;
}

/** Writes tar entries to `out`, respecting its back-pressure. */
export class TarWriter {
  constructor(private readonly out: Writable) {}

  private async write(chunk: Buffer): Promise<void> {
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }

  async add(name: string, bytes: Buffer, mtime = new Date()): Promise<void> {
    await this.write(header(name, bytes.length, mtime));
    await this.write(bytes);
    const pad = (BLOCK - (bytes.length % BLOCK)) % BLOCK;
    if (pad) await this.write(Buffer.alloc(pad));
  }

  /** The two empty blocks that end an archive; then ends the stream. */
  async finish(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
    this.out.end();
    await once(this.out, 'finish');
  }
}

/** Reads exact byte counts from a stream. */
class Pull {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private readonly source: AsyncIterator<Buffer>;

  constructor(stream: Readable) {
    this.source = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  /** Exactly `n` bytes, or null at the end of the stream. */
  async take(n: number): Promise<Buffer | null> {
    while (this.buffered < n) {
      const next = await this.source.next();
      if (next.done) return null;
      this.chunks.push(next.value);
      this.buffered += next.value.length;
    }
    const all = Buffer.concat(this.chunks);
    this.chunks = [all.subarray(n)];
    this.buffered = all.length - n;
    return all.subarray(0, n);
  }
}

/** The regular files of a tar stream, one at a time, with their bytes. */
export async function* readTar(stream: Readable): AsyncGenerator<{ name: string; bytes: Buffer }> {
  const pull = new Pull(stream);
  for (;;) {
    const block = await pull.take(BLOCK);
    if (!block || block.every((byte) => byte === 0)) return;
    if (block.toString('latin1', 257, 262) !== 'ustar') throw new Error('This is not a Quire backup (not a tar archive).');
    const name = block.toString('utf8', 0, 100).replace(/\0.*$/s, '');
    const size = parseInt(block.toString('latin1', 124, 136).replace(/\0.*$/s, '').trim() || '0', 8);
    const type = block.toString('latin1', 156, 157);
    const padded = size + ((BLOCK - (size % BLOCK)) % BLOCK);
    const data = padded ? await pull.take(padded) : Buffer.alloc(0);
    if (!data) throw new Error(`The backup ends in the middle of "${name}": it is truncated.`);
    if (type === '0' || type === '\0') yield { name, bytes: data.subarray(0, size) };
  }
}
