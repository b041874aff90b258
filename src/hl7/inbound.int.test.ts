import assert from 'node:assert/strict';
import { after, before, describe, it } from '../testing/node-test.ts';
import type { App } from '../app.ts';
import { labDeps } from '../app.ts';
import * as lab from '../domain/lab/use-cases.ts';
import { fixedClock } from '../domain/shared/clock.ts';
import { only, present } from '../testing/assert.ts';
import { oru, sendOverMllp, ward, type Ward } from '../testing/hl7-fixtures.ts';
import { makeTestApp } from '../testing/test-app.ts';
import { type OpenedTestDatabase, testDatabases } from '../testing/test-db.ts';
import { startHl7Listener, type Hl7Listener } from './listener.ts';

const NOW = '2026-05-04T10:30:00.000Z';

for (const engine of testDatabases('one')) {
  describe(`HL7 results received over MLLP (${engine.name})`, () => {
    let opened: OpenedTestDatabase;
    let app: App;
    let listener: Hl7Listener;
    let w: Ward;
    const lines: string[] = [];

    /** An order of `codes` from the stay, every specimen collected, its number set to `number` when given. */
    const order = async (codes: string[], number?: string) => {
      const deps = labDeps(opened.db, fixedClock(NOW), { clinicTz: 'UTC', clinicName: 'Test' });
      const tests = await opened.db.query<{ id: number }>(
        `select id from lab_tests where code_system = 'loinc' and code = any($1) order by array_position($1, code)`,
        [codes],
      );
      const placed = await lab.placeOrder(
        deps,
        {
          source: { kind: 'stay', admissionId: w.admissionId },
          testIds: tests.map((t) => t.id),
          priority: 'routine',
          clinicalNote: '',
        },
        w.doctor,
      );
      const items = await opened.db.query<{ id: number }>('select id from lab_order_items where order_id = $1', [
        placed.id,
      ]);
      for (const item of items)
        await lab.collectSpecimen(deps, { itemId: item.id, specimenCode: `S-${item.id}` }, w.labUser);
      if (number) await opened.db.query('update lab_orders set order_number = $2 where id = $1', [placed.id, number]);
      return { id: placed.id, number: number ?? placed.orderNumber };
    };
    const results = (orderId: number) =>
      opened.db.query<{ code: string; value: string; unit: string; status: string; recorded_by: string }>(
        `select o.code, o.value_quantity::text as value, o.value_unit as unit, o.status, u.name as recorded_by
         from observations o join lab_order_items i on i.id = o.order_item_id join users u on u.id = o.recorded_by
         where i.order_id = $1 order by o.code`,
        [orderId],
      );
    const received = (controlId: string) =>
      opened.db.query<{ status: string; ack_code: string; error: string | null; message: string }>(
        'select status, ack_code, error, message from hl7_received where control_id = $1',
        [controlId],
      );

    before(async () => {
      opened = await engine.open();
      app = makeTestApp(opened.db, { clock: fixedClock(NOW), clinicTz: 'UTC' });
      w = await ward(opened.db);
      listener = await startHl7Listener(app.hl7Inbound.receiveMessage, 0, (line) => lines.push(line));
    });
    after(async () => {
      await listener.stop();
      await opened.drop();
    });

    it('records a matched result through the lab: converted to the test unit, interpreted, the report final', async () => {
      const placed = await order(['2823-3', '718-7']);
      const [ack] = await sendOverMllp(listener.port, [
        oru('MATCH-1', placed.number, [
          { code: '2823-3', value: '4.1', unit: 'mmol/L' },
          { code: '718-7', value: '135', unit: 'g/L' },
        ]),
      ]);
      assert.equal(present(ack).getSegment('MSA')?.getField(1)?.toString(), 'AA');
      assert.equal(present(ack).getSegment('MSA')?.getField(2)?.toString(), 'MATCH-1');
      assert.deepEqual(
        (await results(placed.id)).map((r) => [r.code, Number(r.value), r.unit, r.status, r.recorded_by]),
        [
          ['2823-3', 4.1, 'mmol/L', 'final', 'HL7 interface'],
          ['718-7', 13.5, 'g/dL', 'final', 'HL7 interface'],
        ],
      );
      const [report] = await opened.db.query<{ status: string }>('select status from lab_reports where order_id = $1', [
        placed.id,
      ]);
      assert.equal(report?.status, 'final');
      assert.equal(only(await received('MATCH-1')).status, 'processed');
    });

    it('matches a compound order number whole, never the order its prefix names', async () => {
      const compound = await order(['2823-3'], '11545596-0175');
      const prefix = await order(['2823-3'], '11545596');
      const [ack] = await sendOverMllp(listener.port, [
        oru('COMPOUND-1', '11545596-0175', [{ code: '2823-3', value: '5.0', unit: 'mmol/L', status: 'P' }], {
          obr25: 'P',
        }),
      ]);
      assert.equal(present(ack).getSegment('MSA')?.getField(1)?.toString(), 'AA');
      assert.deepEqual(
        (await results(compound.id)).map((r) => [r.code, Number(r.value), r.status]),
        [['2823-3', 5, 'preliminary']],
      );
      assert.deepEqual(await results(prefix.id), []);
    });

    it('puts a result for an order Medora does not know on the unmatched list, acknowledged AA', async () => {
      const [ack] = await sendOverMllp(listener.port, [
        oru('UNKNOWN-1', 'X-99-0001', [{ code: '2345-7', value: '99', unit: 'mg/dL' }]),
      ]);
      assert.equal(present(ack).getSegment('MSA')?.getField(1)?.toString(), 'AA');
      const unmatched = only(
        await opened.db.query<{ order_number: string; code: string; value: string; status: string }>(
          `select order_number, code, value_quantity::text as value, status from lab_unmatched_results
           where message_id like 'UNKNOWN-1/%'`,
        ),
      );
      assert.deepEqual(
        [unmatched.order_number, unmatched.code, Number(unmatched.value), unmatched.status],
        ['X-99-0001', '2345-7', 99, 'pending'],
      );
      assert.equal(only(await received('UNKNOWN-1')).status, 'unmatched');
    });

    it('stores the same MSH-10 once and acknowledges it AA both times, the second changing nothing', async () => {
      const placed = await order(['2823-3']);
      const message = oru('TWICE-1', placed.number, [{ code: '2823-3', value: '3.9', unit: 'mmol/L' }]);
      const acks = await sendOverMllp(listener.port, [message, message]);
      assert.deepEqual(
        acks.map((a) => a.getSegment('MSA')?.getField(1)?.toString()),
        ['AA', 'AA'],
      );
      assert.equal((await received('TWICE-1')).length, 1);
      const [versions] = await opened.db.query<{ n: number }>(
        `select count(*)::int as n from observation_versions v join observations o on o.id = v.observation_id
         join lab_order_items i on i.id = o.order_item_id where i.order_id = $1`,
        [placed.id],
      );
      assert.equal(versions?.n, 1);
    });

    it('answers a malformed result AE with an ERR segment, keeps the message and records nothing of it', async () => {
      const placed = await order(['2823-3', '718-7']);
      const [ack] = await sendOverMllp(listener.port, [
        oru('BAD-1', placed.number, [
          { code: '2823-3', value: '4.4', unit: 'mmol/L' },
          { code: '718-7', value: 'lots', unit: 'g/L' },
        ]),
      ]);
      const answer = present(ack);
      assert.equal(answer.getSegment('MSA')?.getField(1)?.toString(), 'AE');
      const err = present(answer.getSegment('ERR'));
      assert.equal(err.getField(2)?.toString(), 'OBX^2^5');
      assert.equal(err.getComponent(3, 1), '102');
      const kept = only(await received('BAD-1'));
      assert.deepEqual([kept.status, kept.ack_code], ['error', 'AE']);
      assert.match(kept.error ?? '', /lots is not a number/);
      assert.match(kept.message, /OBX\|2\|NM\|718-7/);
      assert.deepEqual(await results(placed.id), []);
    });

    it('answers a unit the test cannot take AE naming the result, and refuses an unsupported type AR', async () => {
      const placed = await order(['2823-3']);
      const acks = await sendOverMllp(listener.port, [
        oru('UNIT-1', placed.number, [{ code: '2823-3', value: '4.4', unit: 'kg' }]),
        'MSH|^~\\&|REG|HOSP|MEDORA|CLINIC|20260504103000||ADT^A01|ADT-1|P|2.5.1\rPID|1||9',
      ]);
      const [unit, adt] = acks.map((a) => [
        a.getSegment('MSA')?.getField(1)?.toString(),
        a.getSegment('ERR')?.getField(2)?.toString(),
      ]);
      assert.deepEqual(unit, ['AE', 'OBX^1']);
      assert.deepEqual(adt, ['AR', 'MSH^1^9']);
      assert.equal(only(await received('ADT-1')).status, 'error');
      assert.deepEqual(await results(placed.id), []);
    });
  });
}
