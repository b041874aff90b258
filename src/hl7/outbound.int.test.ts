import assert from 'node:assert/strict';
import { Hl7Message } from '@medplum/core';
import { type Hl7Connection, Hl7Server } from '@medplum/hl7';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from '../testing/node-test.ts';
import type { App } from '../app.ts';
import type { Actor } from '../domain/shared/actor.ts';
import { present } from '../testing/assert.ts';
import { ward, type Ward } from '../testing/hl7-fixtures.ts';
import { movableClock } from '../testing/scheduling-fakes.ts';
import { makeTestApp } from '../testing/test-app.ts';
import { type OpenedTestDatabase, testDatabases } from '../testing/test-db.ts';
import { startHl7Sender } from './sender.ts';

const NOW = '2026-05-04T10:30:00.000Z';
/** The slow receiver's lease, and its answers' delay: longer than a lease (a renewal comes during each). */
const LEASE_MS = 200;
const ANSWER_MS = 300;

/** A receiving system on a free port: it keeps what it is sent and answers as `answer` says, after `delayMs`. */
async function receiver(answer: (m: Hl7Message, seen: number) => 'AA' | 'AE' | 'AR', delayMs = 0, port = 0) {
  const got: Hl7Message[] = [];
  const server = new Hl7Server((connection: Hl7Connection) => {
    connection.addEventListener('message', (event) => {
      got.push(event.message);
      const seen = got.filter(
        (m) => m.header.getField(10)?.toString() === event.message.header.getField(10)?.toString(),
      );
      setTimeout(
        () => connection.send(event.message.buildAck({ ackCode: answer(event.message, seen.length) })),
        delayMs,
      );
    });
  });
  server.start(port);
  const net = present(server.server);
  await new Promise((resolve) => (net.listening ? resolve(undefined) : net.once('listening', resolve)));
  return { port: (net.address() as AddressInfo).port, got, stop: () => server.stop() };
}

const field = (m: Hl7Message, segment: string, n: number) => m.getSegment(segment)?.getField(n)?.toString() ?? '';
const typeOf = (m: Hl7Message) => `${m.header.getComponent(9, 1)}^${m.header.getComponent(9, 2)}`;

for (const engine of testDatabases('one')) {
  describe(`HL7 messages sent to receivers (${engine.name})`, () => {
    let opened: OpenedTestDatabase;
    let app: App;
    let w: Ward;
    const clock = movableClock(NOW);
    const desk = (): Actor => ({ userId: w.labUser.userId, role: 'admin', name: 'Desk' });
    const addReceiver = async (name: string, port: number, events: string[]) =>
      present(
        (
          await opened.db.query<{ id: number }>(
            `insert into hl7_receivers (name, host, port, events) values ($1, '127.0.0.1', $2, $3) returning id`,
            [name, port, events],
          )
        )[0],
      ).id;
    const sender = (leaseMs = 60_000, ackTimeoutMs = 10_000) =>
      startHl7Sender({ db: opened.db, clock, pollMs: 50, leaseMs, ackTimeoutMs }, { poll: false });
    const rows = (receiverId: number) =>
      opened.db.query<{ control_id: string; event: string; status: string; attempts: number; ack_code: string | null }>(
        'select control_id, event, status, attempts, ack_code from hl7_outbox where receiver_id = $1 order by id',
        [receiverId],
      );

    before(async () => {
      opened = await engine.open();
      app = makeTestApp(opened.db, { clock, clinicTz: 'UTC' });
      w = await ward(opened.db);
    });
    after(() => opened.drop());

    it('sends ADT admit and transfer and OML order and cancel, parsed back field by field', async () => {
      const rx = await receiver(() => 'AA');
      try {
        const id = await addReceiver('Registration', rx.port, ['A01', 'A02', 'O21']);
        const [bedA, bedB] = w.bedIds;
        await app.inpatient.admitPatient({ admissionId: w.admissionId, body: { bed_id: bedA } }, desk());
        await app.inpatient.transferPatient({ admissionId: w.admissionId, body: { bed_id: bedB } }, desk());
        const tests = await opened.db.query<{ id: number }>(`select id from lab_tests where code = '2823-3'`);
        const placed = await app.lab.placeOrder(
          {
            source: { kind: 'stay', admissionId: w.admissionId },
            testIds: tests.map((t) => t.id),
            priority: 'stat',
            clinicalNote: '',
          },
          w.doctor,
        );
        await app.lab.cancelOrder({ orderId: placed.id }, w.doctor);
        const worker = sender();
        await worker.runOnce();
        await worker.runOnce();
        await worker.runOnce();
        await worker.runOnce();
        await worker.stop();
        assert.deepEqual(
          (await rows(id)).map((r) => [r.event, r.status, r.ack_code]),
          [
            ['A01', 'sent', 'AA'],
            ['A02', 'sent', 'AA'],
            ['O21', 'sent', 'AA'],
            ['O21', 'sent', 'AA'],
          ],
        );
        const [a01, a02, placedMsg, cancelled] = rx.got.map((m) => Hl7Message.parse(m.toString()));
        const [admit, transfer, order, cancel] = [present(a01), present(a02), present(placedMsg), present(cancelled)];
        assert.deepEqual(rx.got.map(typeOf), ['ADT^A01', 'ADT^A02', 'OML^O21', 'OML^O21']);
        assert.equal(field(admit, 'PID', 3), `${w.patientId}^^^MEDORA^MR`);
        assert.equal(field(admit, 'PID', 5), 'Patient^Pia');
        assert.equal(field(admit, 'PID', 7), '19800501');
        assert.equal(field(admit, 'PID', 8), 'F');
        assert.equal(field(admit, 'PV1', 2), 'I');
        assert.equal(field(admit, 'PV1', 3), 'Medicine^Medicine 101^A');
        assert.equal(field(admit, 'PV1', 19), String(w.admissionId));
        assert.equal(field(admit, 'PV1', 44), '20260504103000+0000');
        assert.equal(field(transfer, 'PV1', 3), 'Medicine^Medicine 101^B');
        assert.equal(field(transfer, 'PV1', 6), 'Medicine^Medicine 101^A');
        assert.equal(field(order, 'ORC', 1), 'NW');
        assert.equal(order.getSegment('ORC')?.getComponent(2, 1), placed.orderNumber);
        assert.equal(order.getSegment('OBR')?.getComponent(2, 1), placed.orderNumber);
        assert.equal(field(order, 'OBR', 4), '2823-3^Potassium^LN');
        assert.equal(field(order, 'TQ1', 9), 'S');
        assert.equal(field(order, 'PV1', 3), 'Medicine^Medicine 101^B');
        assert.equal(field(cancel, 'ORC', 1), 'CA');
        assert.equal(cancel.getSegment('ORC')?.getComponent(2, 1), placed.orderNumber);
        assert.equal(new Set(rx.got.map((m) => field(m, 'MSH', 10))).size, 4);
      } finally {
        await rx.stop();
      }
    });

    it('loses nothing and sends nothing twice to a receiver that is down, answers AE, then is slow; order kept', async () => {
      const w2 = await ward(opened.db, 'Surgery');
      const rxDown = await receiver(() => 'AA');
      const port = rxDown.port;
      await rxDown.stop();
      const id = await addReceiver('Lab system', port, ['O21']);
      const tests = await opened.db.query<{ id: number }>(`select id from lab_tests where code = '2823-3'`);
      const numbers: string[] = [];
      for (let i = 0; i < 3; i++) {
        const placed = await app.lab.placeOrder(
          {
            source: { kind: 'stay', admissionId: w2.admissionId },
            testIds: tests.map((t) => t.id),
            priority: 'routine',
            clinicalNote: '',
          },
          w2.doctor,
        );
        numbers.push(placed.orderNumber);
      }
      // The clock stands still within a round, so a lease runs out only when the test moves it on, however slow the
      // machine: a short lease has renewals come during each answer, slower than a lease, with little waiting.
      const worker = sender(LEASE_MS, 10_000);
      await worker.runOnce();
      assert.deepEqual(
        (await rows(id)).map((r) => [r.status, r.attempts]),
        [
          ['pending', 1],
          ['pending', 0],
          ['pending', 0],
        ],
      );
      // Up again on the same port, refusing the first message once (AE), each answer slower than a lease.
      const again = await receiver(
        (m, seen) => (seen === 1 && m.getSegment('ORC')?.getComponent(2, 1) === numbers[0] ? 'AE' : 'AA'),
        ANSWER_MS,
        port,
      );
      try {
        for (let round = 0; round < 6; round++) {
          clock.set(new Date(Date.parse(NOW) + (round + 1) * 3_600_000).toISOString());
          await worker.runOnce();
        }
        await worker.stop();
        assert.deepEqual(
          (await rows(id)).map((r) => r.status),
          ['sent', 'sent', 'sent'],
        );
        const received = again.got.map((m) => present(m.getSegment('ORC')).getComponent(2, 1));
        assert.deepEqual(received, [numbers[0], numbers[0], numbers[1], numbers[2]]);
        const accepted = again.got.slice(1).map((m) => field(m, 'MSH', 10));
        assert.equal(new Set(accepted).size, 3);
      } finally {
        await again.stop();
      }
    });

    it('queues ADT^A04 on sign-up and walk-in registration and ADT^A08 on a change of details, PID field by field', async () => {
      const id = await addReceiver('Master index', 9, ['A04', 'A08']);
      const email = `pat.${Date.now()}@example.test`;
      await app.auth.register({
        name: 'Ana María de la Cruz',
        email,
        password: 'a long and unusual passphrase',
        phone: '+1 555 0142',
        birthdate: '1990-02-03',
        gender: 'female',
      });
      const [signedUp] = await opened.db.query<{ id: number }>(
        'select p.id from patients p join users u on u.id = p.user_id where u.email = $1',
        [email],
      );
      const walkIn = await app.staff.registerWalkIn(
        { name: 'Walt In', phone: '555 0199', birthdate: '1975-12-24', gender: 'male' },
        desk(),
      );
      await app.patients.updatePatient(walkIn.patient.id, { name: 'Walter Inman', phone: '555 0200' }, desk());
      const messages = (
        await opened.db.query<{ event: string; patient_id: number; message: string }>(
          'select event, patient_id, message from hl7_outbox where receiver_id = $1 order by id',
          [id],
        )
      ).map((r) => ({ event: r.event, patientId: r.patient_id, m: Hl7Message.parse(r.message) }));
      const pidOf = ({ m }: { m: Hl7Message }) => [
        `${typeOf(m)}^${m.header.getComponent(9, 3)}`,
        field(m, 'EVN', 1),
        present(m.getSegment('PID')).getComponent(3, 1),
        present(m.getSegment('PID')).getComponent(3, 4),
        present(m.getSegment('PID')).getComponent(3, 5),
        present(m.getSegment('PID')).getComponent(5, 1),
        present(m.getSegment('PID')).getComponent(5, 2),
        field(m, 'PID', 7),
        field(m, 'PID', 8),
        field(m, 'PID', 13),
        field(m, 'PV1', 2),
      ];
      const patientOf = present(signedUp).id;
      assert.deepEqual(
        messages.map((r) => [r.event, r.patientId]),
        [
          ['A04', patientOf],
          ['A04', walkIn.patient.id],
          ['A08', walkIn.patient.id],
        ],
      );
      assert.deepEqual(messages.map(pidOf), [
        [
          'ADT^A04^ADT_A01',
          'A04',
          String(patientOf),
          'MEDORA',
          'MR',
          'Cruz',
          'Ana María de la',
          '19900203',
          'F',
          '+1 555 0142',
          'O',
        ],
        [
          'ADT^A04^ADT_A01',
          'A04',
          String(walkIn.patient.id),
          'MEDORA',
          'MR',
          'In',
          'Walt',
          '19751224',
          'M',
          '555 0199',
          'O',
        ],
        [
          'ADT^A08^ADT_A01',
          'A08',
          String(walkIn.patient.id),
          'MEDORA',
          'MR',
          'Inman',
          'Walter',
          '19751224',
          'M',
          '555 0200',
          'O',
        ],
      ]);
      assert.deepEqual(
        messages.map((r) => field(r.m, 'MSH', 5)),
        ['Master index', 'Master index', 'Master index'],
      );
    });
  });
}
