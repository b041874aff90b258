import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { crc32, createDeflateRaw } from 'node:zlib';

// APPNOTE.TXT 6.3: each entry's sizes and CRC-32 follow its data (flag bit 3), so nothing is held to measure it
// first; bit 11 says the names are UTF-8. No ZIP64: a file or archive past 4 GiB is refused, not corrupted.
const FLAGS = 0x0808;
const DEFLATE = 8;
const VERSION = 20;
// Made on Unix (3), so unzip reads the names as UTF-8 rather than an MS-DOS code page, and extracts files rw-r--r--.
const MADE_BY = (3 << 8) | VERSION;
const REGULAR_FILE = 0o100644 * 0x10000;
const MAX_32 = 0xffffffff;

interface Written {
  name: Buffer;
  offset: number;
  crc: number;
  compressed: number;
  size: number;
}

/** An MS-DOS time and date, as ZIP stores them (2-second steps, from 1980). */
function dosTime(at: Date): [number, number] {
  const time = (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2);
  const date = ((Math.max(at.getUTCFullYear(), 1980) - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate();
  return [time, date];
}

/** A ZIP archive written to `out` one deflated entry at a time, as fast as `out` takes it. */
export class ZipWriter {
  private readonly entries: Written[] = [];
  private offset = 0;
  private readonly time: number;
  private readonly date: number;

  constructor(
    private readonly out: Writable,
    modified: Date,
  ) {
    [this.time, this.date] = dosTime(modified);
  }

  /** Starts entry `name`; write its content through the answer, and close it before the next. */
  async entry(name: string): Promise<{ write(data: string): Promise<void>; close(): Promise<void> }> {
    if (this.offset > MAX_32) throw new Error('the archive is too large for a ZIP without ZIP64');
    const written: Written = { name: Buffer.from(name, 'utf8'), offset: this.offset, crc: 0, compressed: 0, size: 0 };
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(DEFLATE, 8);
    header.writeUInt16LE(this.time, 10);
    header.writeUInt16LE(this.date, 12);
    header.writeUInt16LE(written.name.length, 26);
    await this.put(Buffer.concat([header, written.name]));

    const deflate = createDeflateRaw();
    deflate.on('data', (chunk: Buffer) => {
      written.compressed += chunk.length;
      if (this.send(chunk)) return;
      deflate.pause();
      this.out.once('drain', () => deflate.resume());
    });
    // A reader gone mid-entry (the download cancelled) fails the writes waiting on it instead of leaving them hanging.
    const abandon = () => deflate.destroy(new Error('the archive was closed before it was finished'));
    this.out.once('close', abandon);
    return {
      write: async (data) => {
        const bytes = Buffer.from(data, 'utf8');
        written.crc = crc32(bytes, written.crc);
        written.size += bytes.length;
        if (!deflate.write(bytes)) await once(deflate, 'drain');
      },
      close: async () => {
        const ended = once(deflate, 'end');
        deflate.end();
        await ended;
        this.out.off('close', abandon);
        if (written.size > MAX_32 || written.compressed > MAX_32)
          throw new Error(`${name} is too large for a ZIP without ZIP64`);
        const descriptor = Buffer.alloc(16);
        descriptor.writeUInt32LE(0x08074b50, 0);
        descriptor.writeUInt32LE(written.crc, 4);
        descriptor.writeUInt32LE(written.compressed, 8);
        descriptor.writeUInt32LE(written.size, 12);
        await this.put(descriptor);
        this.entries.push(written);
      },
    };
  }

  /** Writes the central directory and ends `out`. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const e of this.entries) {
      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE(MADE_BY, 4);
      header.writeUInt16LE(VERSION, 6);
      header.writeUInt16LE(FLAGS, 8);
      header.writeUInt16LE(DEFLATE, 10);
      header.writeUInt16LE(this.time, 12);
      header.writeUInt16LE(this.date, 14);
      header.writeUInt32LE(e.crc, 16);
      header.writeUInt32LE(e.compressed, 20);
      header.writeUInt32LE(e.size, 24);
      header.writeUInt16LE(e.name.length, 28);
      header.writeUInt32LE(REGULAR_FILE, 38);
      header.writeUInt32LE(e.offset, 42);
      await this.put(Buffer.concat([header, e.name]));
    }
    if (this.offset > MAX_32 || this.entries.length > 0xffff)
      throw new Error('the archive is too large for a ZIP without ZIP64');
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.put(end);
    this.out.end();
  }

  /** Writes `bytes`; false when `out` wants its buffer drained first. */
  private send(bytes: Buffer): boolean {
    this.offset += bytes.length;
    return this.out.write(bytes);
  }

  private async put(bytes: Buffer): Promise<void> {
    if (!this.send(bytes)) await once(this.out, 'drain');
  }
}
