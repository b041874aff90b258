import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { after, describe, it } from '../testing/node-test.ts';
import { ZipWriter } from './zip-writer.ts';

const run = promisify(execFile);

/** A reader that takes a chunk every few milliseconds, so the writer must wait for it. */
function slowSink(): { out: Writable; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  const out = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      setTimeout(done, 1);
    },
  });
  return { out, bytes: () => Buffer.concat(chunks) };
}

describe('the ZIP writer', () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('writes deflated entries that unzip tests and reads back whole, however slowly they are read', async () => {
    const { out, bytes } = slowSink();
    const finished = new Promise((resolve) => out.on('finish', resolve));
    const zip = new ZipWriter(out, new Date('2026-06-10T18:00:00Z'));
    const lines = Array.from(
      { length: 20_000 },
      (_, i) => `{"resourceType":"Basic","id":"${i}","text":"${'x'.repeat(i % 97)}"}\n`,
    );
    const big = await zip.entry('Basic.ndjson');
    for (const line of lines) await big.write(line);
    await big.close();
    const empty = await zip.entry('empty.txt');
    await empty.close();
    const named = await zip.entry('ünïcode.json');
    await named.write('{}\n');
    await named.close();
    await zip.finish();
    await finished;

    const dir = await mkdtemp(join(tmpdir(), 'medora-zip-test-'));
    dirs.push(dir);
    const path = join(dir, 'test.zip');
    await writeFile(path, bytes());
    assert.match((await run('unzip', ['-t', path])).stdout, /No errors detected in compressed data/);
    assert.equal((await run('unzip', ['-p', path, 'Basic.ndjson'], { maxBuffer: 1 << 26 })).stdout, lines.join(''));
    assert.deepEqual((await run('unzip', ['-Z1', path])).stdout.trimEnd().split('\n'), [
      'Basic.ndjson',
      'empty.txt',
      'ünïcode.json',
    ]);
    assert.ok(bytes().length < lines.join('').length / 3, 'deflated');
  });
});
