import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Resource } from '@medplum/fhirtypes';
import type { BulkManifest } from '../domain/fhir/bulk-files.ts';
import { assertValidFhir } from './fhir-validate.ts';

const run = promisify(execFile);

/** A Bulk Data export read back: its manifest and each NDJSON file's resources, every one validated as R4. */
export interface BulkFiles {
  manifest: BulkManifest;
  files: Record<string, Resource[]>;
}

/** Parses `<type>.ndjson` texts against their manifest: the counts agree, and every line is a valid resource of its type. */
export function readBulkFiles(manifestText: string, read: (name: string) => string): BulkFiles {
  const manifest = JSON.parse(manifestText) as BulkManifest;
  assert.deepEqual(Object.keys(manifest).sort(), [
    'error',
    'output',
    'request',
    'requiresAccessToken',
    'transactionTime',
  ]);
  const files: Record<string, Resource[]> = {};
  for (const output of manifest.output) {
    const resources = read(`${output.type}.ndjson`)
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Resource);
    resources.forEach(assertValidFhir);
    assert.ok(
      resources.every((r) => r.resourceType === output.type),
      `${output.type}.ndjson holds only ${output.type}`,
    );
    assert.equal(resources.length, output.count, `${output.type}: the manifest's count`);
    files[output.type] = resources;
  }
  return { manifest, files };
}

/**
 * A ZIP checked by Debian's own `unzip -t` (every entry's CRC-32 and the central directory), then read back
 * with `unzip -p` as a Bulk Data export.
 */
export async function readBulkZip(
  bytes: Uint8Array,
): Promise<BulkFiles & { names: string[]; text: (name: string) => string }> {
  const dir = await mkdtemp(join(tmpdir(), 'medora-zip-'));
  try {
    const path = join(dir, 'export.zip');
    await writeFile(path, bytes);
    const tested = await run('unzip', ['-t', path]);
    assert.match(tested.stdout, /No errors detected/);
    const names = (await run('unzip', ['-Z1', path])).stdout.trimEnd().split('\n');
    const texts = new Map<string, string>();
    for (const name of names) texts.set(name, (await run('unzip', ['-p', path, name], { maxBuffer: 1 << 28 })).stdout);
    const text = (name: string) => {
      const found = texts.get(name);
      assert.ok(found !== undefined, `${name} is in the archive`);
      return found;
    };
    return { ...readBulkFiles(text('manifest.json'), text), names, text };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
