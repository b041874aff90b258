import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import type { Db } from '../db/db.ts';
import { parseImport } from '../domain/imports/parse.ts';
import { addDays, clinicToday, systemClock } from '../domain/shared/clock.ts';
import { openCliDatabase, type CliDatabase } from '../testing/cli.ts';
import { TEST_TZ } from '../testing/test-app.ts';
import { testDatabases } from '../testing/test-db.ts';
import { only } from '../testing/assert.ts';
import { cliActor } from '../domain/shared/actor.ts';

const today = clinicToday(systemClock, TEST_TZ);
const ago = (days: number) => addDays(today, -days);

/**
 * Two doctors, one patient. Dr. Alpha's visits are booked in Cardiology; Dr. Beta's name no department, so they
 * count under Beta's own, Dermatology. One bill has no visit at all. Ages sit on the bucket edges (30/31, 60/61, 90/91).
 */
const BILLS = [
  { doctor: 'alpha', age: 30, cents: 10000, status: 'unpaid' },
  { doctor: 'alpha', age: 45, cents: 20050, status: 'paid' },
  { doctor: 'alpha', age: 31, cents: 5025, status: 'unpaid' },
  { doctor: 'alpha', age: 200, cents: 99999, status: 'unpaid' }, // before the report's period
  { doctor: 'beta', age: 61, cents: 8000, status: 'unpaid' },
  { doctor: 'beta', age: 91, cents: 3000, status: 'unpaid' },
  { doctor: 'beta', age: 90, cents: 500, status: 'paid' },
  { doctor: null, age: 60, cents: 1000, status: 'unpaid' },
] as const;

async function loadFixture(db: Db): Promise<void> {
  const one = async (sql: string, params: unknown[] = []) => only(await db.query<{ id: number }>(sql, params)).id;
  const user = (name: string, email: string, role: string) =>
    one(`insert into users (name, email, password_hash, role) values ($1, $2, 'x', $3) returning id`, [
      name,
      email,
      role,
    ]);
  const cardiology = await one(`insert into departments (name) values ('Cardiology') returning id`);
  const dermatology = await one(`insert into departments (name) values ('Dermatology') returning id`);
  const room = await one(`insert into rooms (name, department_id) values ('C-101', $1) returning id`, [cardiology]);
  const disease = await one(`insert into diseases (name) values ('Flu') returning id`);
  const patient = await one(`insert into patients (user_id, phone) values ($1, '+1 555 0100') returning id`, [
    await user('Pat Smith', 'pat@x.test', 'patient'),
  ]);
  const doctor = async (name: string, email: string, departmentId: number) => {
    const id = await one('insert into doctors (user_id, department_id) values ($1, $2) returning id', [
      await user(name, email, 'doctor'),
      departmentId,
    ]);
    const scheduleId = await one(
      `insert into schedules (doctor_id, weekday, start_time, end_time) values ($1, 1, '08:00', '08:30') returning id`,
      [id],
    );
    return { id, scheduleId };
  };
  const doctors = {
    alpha: await doctor('Dr. Alpha', 'alpha@x.test', cardiology),
    beta: await doctor('Dr. Beta', 'beta@x.test', dermatology),
  };
  const departmentOf = { alpha: cardiology, beta: null };
  const appointment = (
    who: 'alpha' | 'beta',
    date: string,
    start: string,
    status: string,
    roomId: number | null = null,
  ) =>
    one(
      `insert into appointments (patient_id, doctor_id, schedule_id, department_id, room_id, date, start_time, end_time, status)
       values ($1, $2, $3, $4, $5, $6, $7::time, $7::time + interval '30 minutes', $8) returning id`,
      [patient, doctors[who].id, doctors[who].scheduleId, departmentOf[who], roomId, date, start, status],
    );

  for (const bill of BILLS) {
    let recordId: number | null = null;
    if (bill.doctor) {
      const appointmentId = await appointment(bill.doctor, ago(bill.age), '08:00', 'completed');
      recordId = await one(
        `insert into medical_records (appointment_id, patient_id, doctor_id, disease_id, diagnosis, service_type, cost_cents, record_date)
         values ($1, $2, $3, $4, 'Seen', 'Consultation', $5, $6) returning id`,
        [appointmentId, patient, doctors[bill.doctor].id, disease, bill.cents, ago(bill.age)],
      );
    }
    await one(
      `insert into billings (patient_id, medical_record_id, service_details, amount_cents, billing_date, payment_status, paid_cents)
       values ($1, $2, 'Consultation', $3, $4, $5, $6) returning id`,
      [patient, recordId, bill.cents, ago(bill.age), bill.status, bill.status === 'paid' ? bill.cents : 0],
    );
  }
  // Today's list: Beta first by time, Alpha first by name; a cancelled visit is left off the print-out.
  await appointment('beta', today, '08:30', 'scheduled');
  await appointment('alpha', today, '09:30', 'scheduled', room);
  await appointment('alpha', today, '09:00', 'scheduled', room);
  await appointment('alpha', today, '10:00', 'cancelled');
}

const figures = (f: Partial<Record<string, number>>) => ({
  bills: 0,
  billed_cents: 0,
  paid_cents: 0,
  unpaid_cents: 0,
  unpaid_0_30_cents: 0,
  unpaid_31_60_cents: 0,
  unpaid_61_90_cents: 0,
  unpaid_over_90_cents: 0,
  ...f,
});

// Worked out by hand from BILLS over the last 120 days (the 200-day-old bill is outside).
const CARDIOLOGY = figures({
  bills: 3,
  billed_cents: 35075,
  paid_cents: 20050,
  unpaid_cents: 15025,
  unpaid_0_30_cents: 10000,
  unpaid_31_60_cents: 5025,
});
const DERMATOLOGY = figures({
  bills: 3,
  billed_cents: 11500,
  paid_cents: 500,
  unpaid_cents: 11000,
  unpaid_61_90_cents: 8000,
  unpaid_over_90_cents: 3000,
});
const NO_VISIT = figures({ bills: 1, billed_cents: 1000, unpaid_cents: 1000, unpaid_31_60_cents: 1000 });
const TOTAL = figures({
  bills: 7,
  billed_cents: 47575,
  paid_cents: 20550,
  unpaid_cents: 27025,
  unpaid_0_30_cents: 10000,
  unpaid_31_60_cents: 6025,
  unpaid_61_90_cents: 8000,
  unpaid_over_90_cents: 3000,
});

for (const target of testDatabases('one')) {
  describe(`${target.name}: medora report`, () => {
    let database: CliDatabase;
    const medora = (...args: string[]) => database.medora(args);
    const json = async (...args: string[]) => {
      const run = await medora(...args);
      assert.equal(run.code, 0, run.stderr);
      return JSON.parse(run.stdout);
    };

    before(async () => {
      database = await openCliDatabase(target);
      await loadFixture(database.db);
    });
    after(() => database.drop());

    it('sums billing per department, aging unpaid bills as of today, in JSON by default when piped', async () => {
      const report = await json('report', 'billing', '--from', ago(120), '--to', today, '--by', 'department');
      assert.deepEqual(report, {
        from: ago(120),
        to: today,
        as_of: today,
        by: 'department',
        rows: [
          { department: 'Cardiology', ...CARDIOLOGY },
          { department: 'Dermatology', ...DERMATOLOGY },
          { department: null, ...NO_VISIT },
        ],
        total: TOTAL,
      });
    });

    it('sums billing per doctor and per day, and for the whole period without --by', async () => {
      const byDoctor = await json('report', 'billing', '--from', ago(120), '--to', today, '--by', 'doctor');
      assert.deepEqual(byDoctor.rows, [
        { doctor: 'Dr. Alpha', ...CARDIOLOGY },
        { doctor: 'Dr. Beta', ...DERMATOLOGY },
        { doctor: null, ...NO_VISIT },
      ]);
      const byDay = await json('report', 'billing', '--from', ago(91), '--to', ago(90), '--by', 'day');
      assert.deepEqual(byDay.rows, [
        { day: ago(91), ...figures({ bills: 1, billed_cents: 3000, unpaid_cents: 3000, unpaid_over_90_cents: 3000 }) },
        { day: ago(90), ...figures({ bills: 1, billed_cents: 500, paid_cents: 500 }) },
      ]);
      const whole = await json('report', 'billing', '--from', ago(120), '--to', today, '--format', 'json');
      assert.deepEqual(whole.rows, [TOTAL]);
      assert.equal(whole.by, null);
    });

    it('answers zeros for a period without bills', async () => {
      const report = await json('report', 'billing', '--from', '2001-01-01', '--to', '2001-01-31', '--by', 'doctor');
      assert.deepEqual(report.rows, []);
      assert.deepEqual(report.total, figures({}));
    });

    it('writes CSV with a header row that parses back to the same numbers', async () => {
      const run = await medora(
        'report',
        'billing',
        '--from',
        ago(120),
        '--to',
        today,
        '--by',
        'department',
        '--format',
        'csv',
      );
      assert.equal(run.code, 0, run.stderr);
      assert.equal(
        run.stdout.split('\r\n')[0],
        'department,bills,billed_cents,paid_cents,unpaid_cents,unpaid_0_30_cents,unpaid_31_60_cents,unpaid_61_90_cents,unpaid_over_90_cents',
      );
      const rows = parseImport(run.stdout, 'csv', Object.keys({ department: 0, ...TOTAL })).map(({ fields }) =>
        Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, k === 'department' ? v : Number(v)])),
      );
      assert.deepEqual(rows, [
        { department: 'Cardiology', ...CARDIOLOGY },
        { department: 'Dermatology', ...DERMATOLOGY },
        { ...NO_VISIT }, // an empty department cell
      ]);
    });

    it('shows amounts in dollars with two decimals and a total row in a table', async () => {
      const run = await medora(
        'report',
        'billing',
        '--from',
        ago(120),
        '--to',
        today,
        '--by',
        'department',
        '--format',
        'table',
      );
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /│ Cardiology +│ 3 +│ +\$350\.75 │ +\$200\.50 │ +\$150\.25 │ +\$100\.00 │/);
      assert.match(run.stdout, /│ Total +│ 7 +│ +\$475\.75 │/);
      assert.doesNotMatch(run.stdout, /\u001b\[/, 'no colour codes when stdout is not a terminal');
    });

    it("lists the day's appointments per doctor by time, leaving out cancelled ones", async () => {
      const report = await json('report', 'appointments', '--date', today);
      assert.equal(report.date, today);
      const visit = (
        doctor: string,
        start_time: string,
        end_time: string,
        department: string | null,
        room: string | null,
      ) => ({
        doctor,
        start_time,
        end_time,
        patient: 'Pat Smith',
        patient_phone: '+1 555 0100',
        department,
        room,
        status: 'scheduled',
      });
      assert.deepEqual(
        report.appointments.map(({ id, ...rest }: { id: number }) => {
          assert.ok(id > 0);
          return rest;
        }),
        [
          visit('Dr. Alpha', '09:00', '09:30', 'Cardiology', 'C-101'),
          visit('Dr. Alpha', '09:30', '10:00', 'Cardiology', 'C-101'),
          visit('Dr. Beta', '08:30', '09:00', null, null),
        ],
      );
      const csv = await medora('report', 'appointments', '--date', today, '--format', 'csv');
      assert.equal(csv.stdout.split('\r\n').length, 5, 'a header, three appointments and the final line break');
    });

    it("gives the dashboard's statistics and top doctor", async () => {
      const stats = await json('report', 'stats');
      // Booked: 7 visits with records and 3 of today's (the cancelled one is not counted); both doctors treated Flu.
      assert.deepEqual(
        { ...stats, top_doctor: { ...stats.top_doctor, id: undefined } },
        {
          appointment_count: 10,
          patient_count: 1,
          doctor_count: 2,
          average_diseases_per_doctor: 1,
          top_doctor: {
            id: undefined,
            name: 'Dr. Alpha',
            specialization: null,
            patient_img: null,
            completed_appointments_count: 4,
            patient_count: 1,
          },
        },
      );
    });

    it('exits 1 naming the field for a bad value, and 2 for a usage error', async () => {
      const badDate = await medora('report', 'billing', '--from', '2026-02-30');
      assert.equal(badDate.code, 1);
      assert.match(badDate.stderr, /^error: from: must be a date as yyyy-MM-dd$/m);
      const backwards = await medora('report', 'billing', '--from', today, '--to', ago(1));
      assert.equal(backwards.code, 1);
      assert.match(backwards.stderr, /to: must not be before from/);
      const badGroup = await medora('report', 'billing', '--by', 'week');
      assert.equal(badGroup.code, 1);
      assert.match(badGroup.stderr, /by: must be one of department, doctor, day/);
      const unknownOption = await medora('report', 'billing', '--since', today);
      assert.equal(unknownOption.code, 2);
      assert.match(unknownOption.stderr, /unknown option '--since'/);
      const badFormat = await medora('report', 'stats', '--format', 'xml');
      assert.equal(badFormat.code, 2);
      const unknownCommand = await medora('report', 'sales');
      assert.equal(unknownCommand.code, 2);
    });

    // Last: it pays two of the fixture's bills.
    it("sums the day's takings per method to exactly the payments, as JSON, a table and the API's CSV", async () => {
      const [cashBill, insuredBill] = (
        await database.db.query<{ id: number }>(
          `select id from billings where payment_status = 'unpaid' order by id limit 2`,
        )
      ).map((b) => b.id);
      await database.app.billing.takePayment(
        { billingId: String(cashBill), body: { method: 'cash', amount: '10.00' } },
        cliActor(),
      );
      const insured = await database.app.billing.takePayment(
        { billingId: String(insuredBill), body: { method: 'insurance' } },
        cliActor(),
      );
      const report = await json('report', 'takings', '--date', today);
      const paid = only(
        await database.db.query<{ cents: number }>('select coalesce(sum(amount_cents), 0)::int as cents from payments'),
      ).cents;
      assert.equal(report.total_cents, paid);
      assert.deepEqual(
        report.methods.map((m: { method: string; amount_cents: number }) => [m.method, m.amount_cents]),
        [
          ['card', 0],
          ['cash', 1000],
          ['bank_transfer', 0],
          ['insurance', insured.billing.amount_cents],
        ],
      );
      const csv = await medora('report', 'takings', '--date', today, '--format', 'csv');
      assert.equal(csv.stdout, (await database.app.billing.takingsCsv({ date: today }, cliActor())).csv);
      const table = await medora('report', 'takings', '--date', today, '--format', 'table');
      assert.match(table.stdout, /Total\s*│?\s*2\b/);
      const bad = await medora('report', 'takings', '--date', 'tomorrow');
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /date: must be a date as yyyy-MM-dd/);
    });
  });
}
