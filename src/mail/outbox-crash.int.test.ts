import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import type { Db } from '../db/db.ts';
import { addDays, clinicToday, isoWeekday, systemClock } from '../domain/shared/clock.ts';
import { startServerProcess, type ServerProcess } from '../testing/server-process.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';
import { testDatabases } from '../testing/test-db.ts';
import { testHasher } from '../testing/test-app.ts';

const postgres = testDatabases('both').find((target) => target.name === 'postgres');
const LEASE_MS = 1500;

/** A message either arrives once or is still waiting; a process killed with SIGKILL at any moment changes neither. */
describe('the outbox across kill -9', { skip: !postgres && 'TEST_DATABASE_URL is not set' }, () => {
  let smtp: TestSmtp;
  let db: Db;
  let url: string;
  let drop: () => Promise<void>;
  const running: ServerProcess[] = [];

  before(async () => {
    const opened = await (postgres ?? { open: () => Promise.reject(new Error('no server')) }).open();
    db = opened.db;
    drop = opened.drop;
    url = opened.url ?? '';
    smtp = await startTestSmtp();
  });
  after(async () => {
    for (const server of running) await server.stop('SIGKILL');
    // Either is missing when the before hook failed; the other is still closed.
    await smtp?.close();
    await drop?.();
  });

  const serve = async (env: Record<string, string>) => {
    const server = await startServerProcess({
      DATABASE_URL: url,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'desk@crash.test',
      OUTBOX_LEASE_MS: String(LEASE_MS),
      ...env,
    });
    running.push(server);
    return server;
  };
  /**
   * A server that polls its outbox often, the one the first test ends with reused by the second as its first: a
   * process of fewer to start, each seconds of CPU time.
   */
  let polling: ServerProcess | undefined;
  const pollingServer = async () => {
    polling ??= await serve({ OUTBOX_POLL_MS: '100' });
    return polling;
  };
  const kill = async (server: ServerProcess) => {
    if (server === polling) polling = undefined;
    await server.stop('SIGKILL');
  };

  /** A doctor with a slot on `date`'s weekday, and a patient booking it through the server: the commit of the event. */
  async function book(server: ServerProcess, date: string, email: string): Promise<number> {
    const password = 'correct horse battery';
    const [user] = await db.query<{ id: number }>(
      `insert into users (name, email, password_hash, role) values ('Dr. Kill', $1, $2, 'doctor') returning id`,
      [`doc.${email}`, await testHasher.hash(password)],
    );
    const [doctor] = await db.query<{ id: number }>('insert into doctors (user_id) values ($1) returning id', [
      user?.id,
    ]);
    const [slot] = await db.query<{ id: number }>(
      `insert into schedules (doctor_id, weekday, start_time, end_time) values ($1, $2, '09:00', '09:30') returning id`,
      [doctor?.id, isoWeekday(date)],
    );
    const call = async (path: string, body: unknown, token?: string) => {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    };
    await call('/api/patients/register', {
      name: 'Kim Killtest',
      email,
      password,
      phone: '1',
      birthdate: '1990-01-01',
      gender: 'other',
    });
    const login = await call('/api/login', { email, password });
    const booked = await call(
      '/api/appointments/book',
      { doctor_id: doctor?.id, schedule_id: slot?.id, date },
      login.body.token,
    );
    assert.equal(booked.status, 201, JSON.stringify(booked.body));
    return booked.body.id;
  }

  const confirmationsTo = (email: string) =>
    smtp.received.filter((m) => m.subject?.startsWith('Your appointment') && JSON.stringify(m.to).includes(email));
  const statusOf = async (appointmentId: number) =>
    (
      await db.query<{ status: string; attempts: number }>(
        `select status, attempts from outbox where appointment_id = $1 and kind = 'booking_confirmation'`,
        [appointmentId],
      )
    )[0];
  const nextWeek = addDays(clinicToday(systemClock, 'Europe/Berlin'), 7);

  it('sends a message committed by a server killed before it sent anything, once, from the next server', async () => {
    // This server never looks at its outbox in time: the booking commits, and the process dies.
    const first = await serve({ OUTBOX_POLL_MS: '600000' });
    const appointmentId = await book(first, nextWeek, 'before.send@crash.test');
    assert.equal((await statusOf(appointmentId))?.status, 'pending');
    await kill(first);

    await pollingServer();
    await smtp.waitFor(smtp.received.length + 1);
    const deadline = Date.now() + 10_000;
    while ((await statusOf(appointmentId))?.status !== 'sent' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    assert.equal(confirmationsTo('before.send@crash.test').length, 1);
    assert.deepEqual(await statusOf(appointmentId), { status: 'sent', attempts: 1 });
  });

  it('sends a message once when the server dies in the middle of handing it to the mail server', async () => {
    // The mail server takes the first attempt's data and never answers; the sender is killed meanwhile.
    let held = 0;
    smtp.verdict = (_attempt, mail) =>
      mail.subject?.startsWith('Your appointment') && held++ === 0 ? { hold: true } : { accept: true };
    const first = await pollingServer();
    const appointmentId = await book(first, nextWeek, 'during.send@crash.test');
    const deadline = Date.now() + 10_000;
    while (held === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(held, 1, 'the first attempt reached the mail server');
    assert.equal((await statusOf(appointmentId))?.status, 'sending');
    await kill(first);

    // The next server takes the message over once the dead one's lease (1.5 s) has run out: twenty times that.
    const second = await pollingServer();
    const until = Date.now() + 20 * LEASE_MS;
    while ((await statusOf(appointmentId))?.status !== 'sent' && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(await statusOf(appointmentId), { status: 'sent', attempts: 2 });
    assert.equal(
      confirmationsTo('during.send@crash.test').length,
      1,
      'delivered once: the killed attempt never completed',
    );
    await second.stop();
  });
});
