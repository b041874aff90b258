import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { labDeps } from '../app.ts';
import * as lab from '../domain/lab/use-cases.ts';
import { systemClock } from '../domain/shared/clock.ts';
import { only, present } from '../testing/assert.ts';
import { openCliDatabase, type CliDatabase } from '../testing/cli.ts';
import { oru, ward, type Ward } from '../testing/hl7-fixtures.ts';
import { testDatabases } from '../testing/test-db.ts';

for (const target of testDatabases('one')) {
  describe(`${target.name}: medora hl7 commands`, () => {
    let database: CliDatabase;
    let dir: string;
    let w: Ward;
    const medora = (...args: string[]) => database.medora(args);
    const json = async (...args: string[]) => {
      const run = await medora(...args, '--format', 'json');
      assert.equal(run.code, 0, run.stderr);
      return JSON.parse(run.stdout);
    };

    before(async () => {
      database = await openCliDatabase(target);
      dir = await mkdtemp(join(tmpdir(), 'medora-hl7-'));
      w = await ward(database.db);
    });
    after(async () => {
      await rm(dir, { recursive: true, force: true });
      await database.drop();
    });

    it('adds, lists, updates and deactivates receivers, a bad event refused naming the field', async () => {
      const added = await json(
        'hl7',
        'receivers',
        'add',
        '--name',
        'Registration',
        '--host',
        'ris.example',
        '--port',
        '2575',
        '--events',
        'a01,A04',
      );
      assert.deepEqual(
        [added.name, added.port, added.events, added.active],
        ['Registration', 2575, ['A01', 'A04'], true],
      );
      const bad = await medora(
        'hl7',
        'receivers',
        'add',
        '--name',
        'X',
        '--host',
        'h',
        '--port',
        '1',
        '--events',
        'A99',
      );
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /events: must be a list of/);

      const changed = await json('hl7', 'receivers', 'update', String(added.id), '--events', 'A01,A02,O21');
      assert.deepEqual([changed.host, changed.events], ['ris.example', ['A01', 'A02', 'O21']]);
      assert.equal((await json('hl7', 'receivers', 'deactivate', String(added.id))).active, false);
      assert.equal((await json('hl7', 'receivers', 'update', String(added.id), '--active')).active, true);
      const listed = only((await json('hl7', 'receivers', 'list')) as { name: string; queued: number }[]);
      assert.deepEqual([listed.name, listed.queued], ['Registration', 0]);
      const missing = await medora('hl7', 'receivers', 'update', '999', '--port', '1');
      assert.deepEqual([missing.code, missing.stderr.trim()], [1, 'error: Receiver not found']);
    });

    it('imports a file of messages: a matched result recorded, an unknown order unmatched, a repeat once, a malformed one kept', async () => {
      const deps = labDeps(database.db, systemClock, { clinicTz: 'UTC', clinicName: 'Test' });
      const [test] = await database.db.query<{ id: number }>(`select id from lab_tests where code = '2823-3'`);
      const placed = await lab.placeOrder(
        deps,
        {
          source: { kind: 'stay', admissionId: w.admissionId },
          testIds: [present(test).id],
          priority: 'routine',
          clinicalNote: '',
        },
        w.doctor,
      );
      const item = only(
        await database.db.query<{ id: number }>('select id from lab_order_items where order_id = $1', [placed.id]),
      );
      await lab.collectSpecimen(deps, { itemId: item.id, specimenCode: 'S-CLI-1' }, w.labUser);
      const potassium = [{ code: '2823-3', value: '4.2', unit: 'mmol/L' }];
      const file = join(dir, 'results.hl7');
      await writeFile(
        file,
        [
          oru('CLI1', placed.orderNumber, potassium),
          oru('CLI2', 'L-NOWHERE', potassium),
          oru('CLI1', placed.orderNumber, potassium),
          'MSH|^~\\&|ANALYSER|LAB|MEDORA|CLINIC|20260504103000+0000||ORU^R01^ORU_R01|CLI3|P|2.5.1\rOBX|1|NM|2823-3^^LN||abc',
        ]
          .map((m) => m.replaceAll('\r', '\n'))
          .join('\n'),
      );
      const run = await medora('hl7', 'import', file);
      assert.equal(run.code, 0, run.stderr);
      const lines = run.stdout.trim().split('\n');
      assert.deepEqual(lines.slice(0, 3), ['CLI1\tAA', 'CLI2\tAA', 'CLI1\tAA (received before)']);
      assert.match(lines[3] ?? '', /^CLI3\tA[ER]\t/);
      assert.equal(lines[4], '4 messages: 3 accepted, 1 refused (kept for review)');

      const values = await database.db.query<{ value: string }>(
        `select o.value_quantity::text as value from observations o where o.order_item_id = $1`,
        [item.id],
      );
      assert.deepEqual(
        values.map((v) => v.value),
        ['4.2'],
      );
      const unmatched = await database.db.query<{ order_number: string }>(
        'select order_number from lab_unmatched_results',
      );
      assert.deepEqual(
        unmatched.map((u) => u.order_number),
        ['L-NOWHERE'],
      );
      const kept = await database.db.query<{ control_id: string; status: string }>(
        'select control_id, status from hl7_received order by id',
      );
      assert.deepEqual(
        kept.map((k) => [k.control_id, k.status]),
        [
          ['CLI1', 'processed'],
          ['CLI2', 'unmatched'],
          ['CLI3', 'error'],
        ],
      );
    });
  });
}
