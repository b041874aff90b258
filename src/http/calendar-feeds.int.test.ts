import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import ICAL from 'ical.js';
import { request } from 'node:http';
import { eventUid } from '../domain/notifications/ics.ts';
import { fixedClock } from '../domain/shared/clock.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { signUpAdmin, startTestServer, type TestServer } from '../testing/http.ts';
import { testDatabases } from '../testing/test-db.ts';
import { CALENDAR_FEED_PREFIX } from '../links.ts';

const ZONE = 'Europe/Berlin';
const CLINIC = { name: 'Lakeside Clinic', timeZone: ZONE, locale: 'en-US', mailFrom: 'no-reply@medora.local' };

/** The feed's events by UID, read as a calendar application reads them: through the file's own VTIMEZONE. */
function eventsOf(text: string): Map<string, ICAL.Event> {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  return new Map(
    calendar.getAllSubcomponents('vevent').map((v) => [String(v.getFirstPropertyValue('uid')), new ICAL.Event(v)]),
  );
}

const startOf = (event: ICAL.Event | undefined) => event?.startDate.toJSDate().toISOString();

for (const target of testDatabases('one')) {
  describe(`calendar feeds on ${target.name}`, () => {
    let server: TestServer;
    let fixtures: ReturnType<typeof clinicFixtures>;
    const logLines: string[] = [];
    let doctor: Awaited<ReturnType<ReturnType<typeof clinicFixtures>['doctor']>>;
    let mia: Awaited<ReturnType<ReturnType<typeof clinicFixtures>['patient']>>;
    let otto: Awaited<ReturnType<ReturnType<typeof clinicFixtures>['patient']>>;
    const visits: Record<string, number> = {};

    before(async () => {
      // Wednesday 20 March 2030 in Berlin; the clocks go forward on Sunday 31 March.
      server = await startTestServer(target, {
        clock: fixedClock('2030-03-20T10:00:00Z'),
        clinicTz: ZONE,
        clinicName: CLINIC.name,
        log: (line) => logLines.push(line),
      });
      fixtures = clinicFixtures(server);
      doctor = await fixtures.doctor('Dr. Ada Lovelace');
      const otherDoctor = await fixtures.doctor('Dr. Other');
      mia = await fixtures.patient('Mia Meyer');
      otto = await fixtures.patient('Otto Otherpatient');
      // The fixture gives each of a doctor's appointments the next half hour from 08:00.
      visits.miaBeforeDst = await fixtures.appointment({ doctor, patientId: mia.patientId, date: '2030-03-25' }); // 08:00 CET
      visits.miaAfterDst = await fixtures.appointment({ doctor, patientId: mia.patientId, date: '2030-04-01' }); // 08:30 CEST
      visits.miaCancelled = await fixtures.appointment({ doctor, patientId: mia.patientId, date: '2030-03-22' });
      await server.db.query(`update appointments set status = 'cancelled' where id = $1`, [visits.miaCancelled]);
      visits.otto = await fixtures.appointment({ doctor, patientId: otto.patientId, date: '2030-03-27' });
      visits.miaLongAgo = await fixtures.appointment({
        doctor,
        patientId: mia.patientId,
        date: '2030-01-07',
        status: 'completed',
      });
      visits.miaFarAhead = await fixtures.appointment({ doctor, patientId: mia.patientId, date: '2030-12-02' });
      visits.miaElsewhere = await fixtures.appointment({
        doctor: otherDoctor,
        patientId: mia.patientId,
        date: '2030-03-26',
      });
    });
    after(() => server.close());

    const makeFeed = async (token: string) => {
      const made = await server.api('POST', '/api/user/calendar-feed', { token });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      return made.body.url as string;
    };
    const read = async (url: string) => {
      const res = await fetch(url);
      return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
    };

    it("answers a patient's own visits at their instants in the clinic's zone, and no patient's name", async () => {
      const url = await makeFeed(mia.token);
      assert.ok(url.startsWith(`${server.url}/api/calendar/`) && url.endsWith('.ics'), url);
      const feed = await read(url);
      assert.equal(feed.status, 200);
      assert.match(feed.type ?? '', /^text\/calendar/);
      const events = eventsOf(feed.text);
      const uid = (name: string) => eventUid(visits[name] ?? 0, CLINIC);
      assert.deepEqual(
        [...events.keys()].sort(),
        ['miaBeforeDst', 'miaAfterDst', 'miaCancelled', 'miaElsewhere'].map(uid).sort(),
      );
      assert.equal(startOf(events.get(uid('miaBeforeDst'))), '2030-03-25T07:00:00.000Z');
      assert.equal(startOf(events.get(uid('miaAfterDst'))), '2030-04-01T06:30:00.000Z');
      assert.equal(events.get(uid('miaAfterDst'))?.summary, 'Appointment with Dr. Ada Lovelace');
      const cancelled = events.get(uid('miaCancelled'));
      assert.equal(cancelled?.component.getFirstPropertyValue('status'), 'CANCELLED');
      assert.equal(cancelled?.sequence, 1);
      assert.doesNotMatch(feed.text, /Otto|Otherpatient|Mia|Meyer/);
      const audited = await server.db.query(
        `select actor_user_id, actor_role, entity_id, patient_id, details->>'visits' as visits from audit_log where action = 'read_calendar_feed'`,
      );
      assert.deepEqual(audited, [
        {
          actor_user_id: mia.user.id,
          actor_role: 'patient',
          entity_id: String(mia.user.id),
          patient_id: mia.patientId,
          visits: '4',
        },
      ]);
    });

    it("answers a doctor's appointments with their patients' names, and only that doctor's", async () => {
      const feed = await read(await makeFeed(doctor.token));
      assert.equal(feed.status, 200);
      const events = eventsOf(feed.text);
      const summaries = [...events.values()].map((e) => e.summary).sort();
      assert.deepEqual(summaries, ['Cancelled: Mia Meyer', 'Mia Meyer', 'Mia Meyer', 'Otto Otherpatient']);
      assert.ok(!events.has(eventUid(visits.miaElsewhere ?? 0, CLINIC)));
      assert.equal(startOf(events.get(eventUid(visits.otto ?? 0, CLINIC))), '2030-03-27T08:30:00.000Z');
    });

    it('makes no link to a host the request names, without PUBLIC_URL: 409 public_url_unset', async () => {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          `${server.url}/api/user/calendar-feed`,
          { method: 'POST', headers: { host: 'evil.example', authorization: `Bearer ${mia.token}` }, timeout: 10_000 },
          (res) => {
            let body = '';
            res.on('data', (chunk) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
        req.end();
      });
      assert.equal(answer.status, 409, answer.body);
      assert.equal(JSON.parse(answer.body).code, 'public_url_unset');
    });

    it('shows whether a feed is on, never its address again', async () => {
      const status = await server.api('GET', '/api/user/calendar-feed', { token: mia.token });
      assert.equal(status.status, 200);
      assert.equal(status.body.active, true);
      assert.equal(status.body.created_at, '2030-03-20T10:00:00.000Z');
      assert.equal(status.body.url, undefined);
      assert.deepEqual((await server.api('GET', '/api/user/calendar-feed', { token: otto.token })).body, {
        active: false,
        created_at: null,
      });
    });

    it('stops answering the old address once a new one is made', async () => {
      const old = await makeFeed(otto.token);
      const fresh = await makeFeed(otto.token);
      assert.notEqual(fresh, old);
      assert.equal((await read(old)).status, 404);
      assert.equal((await read(fresh)).status, 200);
    });

    it('stops answering once turned off, and lets nobody manage another user’s feed', async () => {
      const url = await makeFeed(otto.token);
      const miaUrl = await makeFeed(mia.token);
      assert.equal((await server.api('DELETE', '/api/user/calendar-feed', { token: otto.token })).status, 204);
      assert.equal((await read(url)).status, 404);
      assert.equal((await server.api('DELETE', '/api/user/calendar-feed', { token: otto.token })).status, 204);
      // Otto's turning off and remaking his own feed leaves Mia's as it was.
      await makeFeed(otto.token);
      assert.equal((await read(miaUrl)).status, 200);
      const admin = await signUpAdmin(server);
      const refused = await server.api('POST', '/api/user/calendar-feed', { token: admin.token });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'forbidden');
      assert.equal((await server.api('POST', '/api/user/calendar-feed')).status, 401);
    });

    it("stops answering a deactivated account's feed", async () => {
      const doctorUrl = await makeFeed(doctor.token);
      assert.equal((await read(doctorUrl)).status, 200);
      await server.db.query('update doctors set active = false where id = $1', [doctor.doctorId]);
      assert.equal((await read(doctorUrl)).status, 404);
      await server.db.query('update doctors set active = true where id = $1', [doctor.doctorId]);
    });

    it('answers 404 to a token it never made', async () => {
      for (const token of ['x'.repeat(43), 'not-a-token', '%2e%2e']) {
        const res = await server.api('GET', `/api/calendar/${token}.ics`);
        assert.equal(res.status, 404, token);
      }
    });

    it('keeps feed tokens out of the access log', async () => {
      const url = await makeFeed(mia.token);
      const token = decodeURIComponent(url.slice(url.lastIndexOf('/') + 1, -'.ics'.length));
      assert.equal((await read(url)).status, 200);
      assert.equal((await read(url.replace(/\.ics$/, '.ics/extra'))).status, 404);
      // Near misses: a doubled slash, a mistyped prefix, the token outside the API.
      for (const near of ['/api//calendar/', '/api/calender/', '/calendar/']) {
        assert.equal((await read(url.replace(CALENDAR_FEED_PREFIX, near))).status, 404, near);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.ok(
        logLines.some((line) => line.startsWith('GET /api/calendar/[token] 200')),
        logLines.slice(-3).join('\n'),
      );
      assert.ok(!logLines.some((line) => line.includes(token)));
    });
  });
}
