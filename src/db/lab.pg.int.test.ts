import assert from 'node:assert/strict';
import { after, before, describe, it } from '../testing/node-test.ts';
import { labDeps } from '../app.ts';
import * as lab from '../domain/lab/use-cases.ts';
import type { LabDeps } from '../domain/lab/ports.ts';
import type { Actor } from '../domain/shared/actor.ts';
import { fixedClock } from '../domain/shared/clock.ts';
import { DomainError } from '../domain/shared/errors.ts';
import { only, present, rejects } from '../testing/assert.ts';
import { type OpenedTestDatabase, testDatabases } from '../testing/test-db.ts';

const ORDERED_AT = '2025-03-03T09:00:00.000Z';

interface Ward {
  admissionId: number;
  doctor: Actor;
  colleague: Actor;
  labUsers: [Actor, Actor];
}

/** A department, its two doctors, a patient admitted by the first, and two lab users, written straight into the tables. */
async function ward(db: OpenedTestDatabase['db']): Promise<Ward> {
  const row = only(
    await db.query<{ ids: number[] }>(
      `with dept as (insert into departments (name) values ('Medicine') returning id),
            pu as (insert into users (name, password_hash, role) values ('Pia Patient', 'x', 'patient') returning id),
            p as (insert into patients (user_id, gender, birthdate) select id, 'female', '1980-05-01' from pu returning id),
            du as (insert into users (name, email, password_hash, role)
                   values ('Dr Doe', 'doe@example.test', 'x', 'doctor'), ('Dr Roe', 'roe@example.test', 'x', 'doctor')
                   returning id, name),
            doc as (insert into doctors (user_id, department_id) select du.id, dept.id from du, dept returning id, user_id),
            lu as (insert into users (name, email, password_hash, role)
                   values ('Lee Lab', 'lee@example.test', 'x', 'lab'), ('Lou Lab', 'lou@example.test', 'x', 'lab')
                   returning id),
            adm as (insert into admissions (patient_id, department_id, requested_by, expected_nights, reason, requested_at)
                    select p.id, dept.id, (select min(id) from doc), 2, 'Observation', now() from p, dept returning id)
       select array[(select id from adm),
                    (select min(user_id) from doc), (select min(id) from doc),
                    (select max(user_id) from doc), (select max(id) from doc),
                    (select min(id) from lu), (select max(id) from lu)] as ids`,
    ),
  );
  const [admissionId, doeUser, doeDoctor, roeUser, roeDoctor, lee, lou] = row.ids.map(Number) as number[];
  return {
    admissionId: present(admissionId),
    doctor: { userId: present(doeUser), role: 'doctor', name: 'Dr Doe', doctorId: present(doeDoctor) },
    colleague: { userId: present(roeUser), role: 'doctor', name: 'Dr Roe', doctorId: present(roeDoctor) },
    labUsers: [
      { userId: present(lee), role: 'lab', name: 'Lee Lab' },
      { userId: present(lou), role: 'lab', name: 'Lou Lab' },
    ],
  };
}

const testId = async (db: OpenedTestDatabase['db'], code: string) =>
  only(await db.query<{ id: number }>(`select id from lab_tests where code_system = 'loinc' and code = $1`, [code])).id;

const itemOf = async (db: OpenedTestDatabase['db'], orderId: number, code: string) =>
  only(
    await db.query<{ id: number }>(
      `select i.id from lab_order_items i join lab_tests t on t.id = i.test_id where i.order_id = $1 and t.code = $2`,
      [orderId, code],
    ),
  ).id;

for (const engine of testDatabases('both')) {
  describe(`lab orders and results (${engine.name})`, () => {
    let opened: OpenedTestDatabase;
    let deps: LabDeps;
    let w: Ward;
    const at = (minutes: number) => new Date(Date.parse(ORDERED_AT) + minutes * 60_000);
    const depsAt = (minutes: number) =>
      labDeps(opened.db, fixedClock(at(minutes).toISOString()), { clinicTz: 'UTC', clinicName: 'Test' });

    before(async () => {
      opened = await engine.open();
      deps = depsAt(0);
      w = await ward(opened.db);
    });
    after(() => opened.drop());

    const order = async (codes: string[]) =>
      lab.placeOrder(
        deps,
        {
          source: { kind: 'stay', admissionId: w.admissionId },
          testIds: await Promise.all(codes.map((c) => testId(opened.db, c))),
          priority: 'urgent',
          clinicalNote: 'Weakness',
        },
        w.doctor,
      );

    it('ships the starter catalogue: 69 entries, the CBC panel with its 9 members', async () => {
      const [counts] = await opened.db.query<{ tests: number; cbc: number }>(
        `select (select count(*)::int from lab_tests) as tests,
                (select count(*)::int from lab_panel_members m join lab_tests p on p.id = m.panel_id where p.code = '58410-2') as cbc`,
      );
      assert.deepEqual(counts, { tests: 69, cbc: 9 });
    });

    it('orders a panel and a test from a stay: one bill per test as ordered, the panel expanded, the number kept whole', async () => {
      const placed = await order(['58410-2', '2823-3']);
      assert.match(placed.orderNumber, /^L20250303-\d{6}$/);
      assert.equal(placed.billIds.length, 2);
      const [row] = await opened.db.query<{ items: number; billed: number }>(
        `select (select count(*)::int from lab_order_items where order_id = $1) as items,
                (select sum(b.amount_cents)::int from billings b where b.id = any($2::int[])) as billed`,
        [placed.id, placed.billIds],
      );
      assert.deepEqual(row, { items: 10, billed: 1500 + 500 });
    });

    it("refuses a doctor outside the patient's care team as if the stay did not exist", async () => {
      const outsider: Actor = { ...w.colleague };
      await rejects(
        lab.placeOrder(
          deps,
          { source: { kind: 'stay', admissionId: w.admissionId }, testIds: [1], priority: 'routine', clinicalNote: '' },
          outsider,
        ),
        'not_found',
      );
    });

    it('voids the bill lines of an order cancelled before collection, and refuses its results with 409', async () => {
      const placed = await order(['2823-3']);
      await lab.cancelOrder(deps, { orderId: placed.id }, w.doctor);
      const [bill] = await opened.db.query<{ amount_cents: number; credited_cents: number }>(
        `select amount_cents, credited_cents from billings where id = $1`,
        [placed.billIds[0]],
      );
      assert.deepEqual(bill, { amount_cents: 500, credited_cents: 500 });
      const item = await itemOf(opened.db, placed.id, '2823-3');
      await rejects(
        lab.enterResult(deps, { itemId: item, result: { type: 'quantity', value: 4, unit: 'mmol/L' } }, w.labUsers[0]),
        'conflict',
        'order_cancelled',
      );
      await rejects(lab.cancelOrder(deps, { orderId: placed.id }, w.doctor), 'conflict', 'order_cancelled');
    });

    it('collects a specimen once, converts the unit, reads a critical value, and signs off once of two at once', async () => {
      const placed = await order(['2823-3', '2951-2']);
      const potassium = await itemOf(opened.db, placed.id, '2823-3');
      const sodium = await itemOf(opened.db, placed.id, '2951-2');
      await lab.collectSpecimen(deps, { itemId: potassium, specimenCode: `S-${placed.id}-1` }, w.labUsers[0]);
      await rejects(
        lab.collectSpecimen(deps, { itemId: potassium, specimenCode: `S-${placed.id}-2` }, w.labUsers[1]),
        'conflict',
        'already_collected',
      );
      await lab.collectSpecimen(deps, { itemId: sodium, specimenCode: `S-${placed.id}-3` }, w.labUsers[0]);
      const unknown = await rejects(
        lab.enterResult(
          deps,
          { itemId: potassium, result: { type: 'quantity', value: 7, unit: 'mEq/l' } },
          w.labUsers[0],
        ),
        'invalid',
      );
      assert.match(unknown.fields?.unit?.[0] ?? '', /mEq\/l/);
      const result = await lab.enterResult(
        deps,
        { itemId: potassium, result: { type: 'quantity', value: 7000, unit: 'umol/L' } },
        w.labUsers[0],
      );
      assert.equal(result.interpretation, 'HH');
      await lab.enterResult(
        deps,
        { itemId: sodium, result: { type: 'quantity', value: 140, unit: 'mmol/L' } },
        w.labUsers[0],
      );
      const [stored] = await opened.db.query<{ value_quantity: number; value_unit: string }>(
        `select value_quantity, value_unit from observations where id = $1`,
        [result.observationId],
      );
      assert.deepEqual(stored, { value_quantity: 7, value_unit: 'mmol/L' });

      const outcomes = await Promise.allSettled(
        w.labUsers.map((user) => lab.finalizeReport(deps, { orderId: placed.id }, user)),
      );
      assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
      const refused = only(outcomes.filter((o) => o.status === 'rejected'));
      assert.ok(refused.reason instanceof DomainError && refused.reason.kind === 'conflict', String(refused.reason));

      const alert = only(
        await opened.db.query<{ id: number }>(
          `select a.id from lab_critical_alerts a join observations o on o.id = a.observation_id where o.id = $1`,
          [result.observationId],
        ),
      );
      // Dr Roe is of the same department: not before 30 minutes, then yes.
      await rejects(lab.acknowledgeCritical(depsAt(29), { alertId: alert.id }, w.colleague), 'not_found');
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          lab.acknowledgeCritical(
            depsAt(i % 2 === 0 ? 0 : 31),
            { alertId: alert.id },
            i % 2 === 0 ? w.doctor : w.colleague,
          ),
        ),
      );
      assert.equal(answers.filter((a) => a.acknowledged).length, 1);
      const [acks] = await opened.db.query<{ n: number }>(
        `select count(*)::int as n from lab_critical_acknowledgements where alert_id = $1`,
        [alert.id],
      );
      assert.equal(acks?.n, 1);
    });

    it('lists a signed-off report to review for its ordering doctor until he reviews it, whoever else does', async () => {
      const toReview = async () =>
        (
          await deps.lab.orderIds(
            { kind: 'to_review', doctorId: present(w.doctor.doctorId) },
            { q: '', page: 1, perPage: 100 },
          )
        ).items;
      const placed = await order(['2951-2']);
      const sodium = await itemOf(opened.db, placed.id, '2951-2');
      await lab.collectSpecimen(deps, { itemId: sodium, specimenCode: `S-${placed.id}-r` }, w.labUsers[0]);
      await lab.enterResult(
        deps,
        { itemId: sodium, result: { type: 'quantity', value: 141, unit: 'mmol/L' } },
        w.labUsers[0],
      );
      assert.ok(!(await toReview()).includes(placed.id), 'not before sign-off');
      await lab.finalizeReport(deps, { orderId: placed.id }, w.labUsers[0]);
      assert.ok((await toReview()).includes(placed.id), 'signed off: to review');
      const reportId = only(
        await opened.db.query<{ id: number }>(`select id from lab_reports where order_id = $1`, [placed.id]),
      ).id;
      await deps.lab.review(reportId, present(w.colleague.doctorId), at(5), 'Seen for Dr Doe');
      assert.ok((await toReview()).includes(placed.id), "a colleague's review leaves it to its doctor");
      await deps.lab.review(reportId, present(w.doctor.doctorId), at(6), 'Normal');
      assert.ok(!(await toReview()).includes(placed.id), 'reviewed by its doctor: gone');
      await opened.db.query(`update lab_reports set status = 'corrected' where id = $1`, [reportId]);
      assert.ok(!(await toReview()).includes(placed.id), 'a correction after his review does not bring it back');
      const [flag] = await opened.db.query<{ awaiting_review: boolean }>(
        `select awaiting_review from lab_orders where id = $1`,
        [placed.id],
      );
      assert.equal(flag?.awaiting_review, false);
    });
  });
}
