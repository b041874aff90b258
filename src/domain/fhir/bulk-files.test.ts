import assert from 'node:assert/strict';
import type { Resource } from '@medplum/fhirtypes';
import { describe, it } from '../../testing/node-test.ts';
import { allResources, writeNdjsonFiles, type NdjsonFile } from './bulk-files.ts';
import type { PatientExport } from './everything-use-case.ts';

async function* each(...resources: Resource[]): AsyncGenerator<Resource> {
  yield* resources;
}

const exported: PatientExport = {
  transactionTime: '2026-06-10T18:00:00.000Z',
  request: 'https://clinic.example.org/fhir/R4/Patient/1/$everything?_format=application/zip',
  files: [
    { type: 'Patient', resources: () => each({ resourceType: 'Patient', id: '1' }) },
    { type: 'Appointment', resources: () => each() },
    {
      type: 'Encounter',
      resources: () =>
        each(
          { resourceType: 'Encounter', id: '7', status: 'finished', class: { code: 'AMB' } },
          { resourceType: 'Encounter', id: 'stay-2', status: 'in-progress', class: { code: 'IMP' } },
        ),
    },
  ],
};

describe('Bulk Data files of an export', () => {
  it('writes a file per type that has resources, a JSON line each, and a manifest in Bulk Data shape', async () => {
    const written = new Map<string, string[]>();
    const open = async (name: string): Promise<NdjsonFile> => {
      const lines: string[] = [];
      written.set(name, lines);
      return { write: async (line) => void lines.push(line), close: async () => undefined };
    };
    const manifest = await writeNdjsonFiles(exported, open, (name) => `files/${name}`);
    assert.deepEqual([...written.keys()], ['Patient.ndjson', 'Encounter.ndjson']);
    assert.deepEqual(
      written.get('Encounter.ndjson')?.map((line) => JSON.parse(line).id),
      ['7', 'stay-2'],
    );
    assert.ok(
      written.get('Patient.ndjson')?.every((line) => line.endsWith('}\n') && !line.slice(0, -1).includes('\n')),
    );
    assert.deepEqual(manifest, {
      transactionTime: '2026-06-10T18:00:00.000Z',
      request: exported.request,
      requiresAccessToken: false,
      output: [
        { type: 'Patient', url: 'files/Patient.ndjson', count: 1 },
        { type: 'Encounter', url: 'files/Encounter.ndjson', count: 2 },
      ],
      error: [],
    });
  });

  it('streams every file one after another for a single NDJSON answer', async () => {
    const ids: (string | undefined)[] = [];
    for await (const resource of allResources(exported)) ids.push(resource.id);
    assert.deepEqual(ids, ['1', '7', 'stay-2']);
  });
});
