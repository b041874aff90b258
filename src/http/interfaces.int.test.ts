import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { only, present } from '../testing/assert.ts';
import { oru } from '../testing/hl7-fixtures.ts';
import {
  PASSWORD,
  signIn,
  signUpAdmin,
  signUpPatient,
  startTestServer,
  uniqueEmail,
  type TestServer,
} from '../testing/http.ts';
import { testDatabases } from '../testing/test-db.ts';
import { interfacesRoutes } from './routes/interfaces.ts';
import { assertRoutesAnswerByAccess } from '../testing/route-access.ts';

for (const target of testDatabases('one')) {
  describe(`HL7 interfaces over HTTP on ${target.name}`, () => {
    let server: TestServer;
    let admin: { token: string };
    let lab: { token: string };
    let patient: { token: string };

    const api = (method: string, path: string, token: string | undefined, body?: unknown) =>
      server.api(method, path, { token, body });
    const ok = async (method: string, path: string, token: string, body?: unknown, status = 200) => {
      const res = await api(method, path, token, body);
      assert.equal(res.status, status, `${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };

    before(async () => {
      server = await startTestServer(target);
      admin = await signUpAdmin(server);
      const email = uniqueEmail('lab');
      await ok('POST', '/api/admin/lab-technicians', admin.token, { name: 'Lee Lab', email, password: PASSWORD }, 201);
      lab = await signIn(server, email);
      patient = await signUpPatient(server);
    });
    after(() => server.close());

    it('adds, lists, changes and deactivates receivers, audited, a taken name and a bad event refused by field', async () => {
      const added = await ok(
        'POST',
        '/api/admin/hl7/receivers',
        admin.token,
        { name: 'Registration', host: 'ris.example', port: 2575, events: ['A01', 'A04'] },
        201,
      );
      assert.deepEqual(
        [added.name, added.host, added.port, added.events, added.active, added.queued, added.dead],
        ['Registration', 'ris.example', 2575, ['A01', 'A04'], true, 0, 0],
      );
      const taken = await api('POST', '/api/admin/hl7/receivers', admin.token, {
        name: 'Registration',
        host: 'x',
        port: 1,
        events: ['A01'],
      });
      assert.deepEqual([taken.status, taken.body.code], [409, 'name_taken']);
      const bad = await api('POST', '/api/admin/hl7/receivers', admin.token, {
        name: 'Other',
        host: 'x',
        port: 70000,
        events: ['A01', 'ZZZ'],
      });
      assert.equal(bad.status, 422);
      assert.deepEqual(Object.keys(bad.body.errors).sort(), ['events', 'port']);
      const twice = await api('POST', '/api/admin/hl7/receivers', admin.token, {
        name: 'Other',
        host: 'x',
        port: 1,
        events: ['A01', 'A01'],
      });
      assert.deepEqual([twice.status, Object.keys(twice.body.errors)], [422, ['events']]);

      const changed = await ok('PUT', `/api/admin/hl7/receivers/${added.id}`, admin.token, {
        name: 'Registration',
        host: 'ris2.example',
        port: 2576,
        events: ['A01', 'A02', 'A03', 'O21'],
        active: true,
      });
      assert.deepEqual(
        [changed.host, changed.port, changed.events, changed.active],
        ['ris2.example', 2576, ['A01', 'A02', 'A03', 'O21'], true],
      );
      const off = await ok('POST', `/api/admin/hl7/receivers/${added.id}/deactivate`, admin.token);
      assert.equal(off.active, false);
      const listed = await ok('GET', '/api/admin/hl7/receivers', admin.token);
      assert.deepEqual(
        listed.receivers.map((r: { name: string; active: boolean }) => [r.name, r.active]),
        [['Registration', false]],
      );
      const back = await ok('PUT', `/api/admin/hl7/receivers/${added.id}`, admin.token, {
        ...changed,
        id: undefined,
        active: true,
      });
      assert.equal(back.active, true);
      const audited = await server.db.query<{ action: string }>(
        `select action from audit_log where entity = 'hl7_receiver' and entity_id = $1 order by id`,
        [String(added.id)],
      );
      assert.deepEqual(
        audited.map((a) => a.action),
        ['create', 'update', 'deactivate', 'update'],
      );
    });

    it('lists messages each way with their acknowledgements and resends a dead letter at its place, audited', async () => {
      const rx = await ok(
        'POST',
        '/api/admin/hl7/receivers',
        admin.token,
        { name: 'Lab system', host: '127.0.0.1', port: 9, events: ['O21'] },
        201,
      );
      const [dead, later] = await server.db.query<{ id: string }>(
        `insert into hl7_outbox (receiver_id, event, control_id, message, status, attempts, last_error, ack_code, ack)
         values ($1, 'O21', 'TDEAD', 'MSH|^~\\&|', 'dead', 3, 'AR: unknown test', 'AR', 'MSH|^~\\&|\rMSA|AR|TDEAD'),
                ($1, 'O21', 'TLATER', 'MSH|^~\\&|', 'pending', 0, null, null, null)
         returning id`,
        [rx.id],
      );
      const deadId = Number(present(dead).id);
      const listed = await ok('GET', `/api/admin/hl7/receivers`, admin.token);
      const row = present(listed.receivers.find((r: { id: number }) => r.id === rx.id));
      assert.deepEqual([row.queued, row.dead], [1, 1]);
      const letters = await ok('GET', `/api/admin/hl7/outbound?status=dead&receiver_id=${rx.id}`, admin.token);
      const letter = only(letters.messages as { id: number; ack_code: string; last_error: string }[]);
      assert.deepEqual([letter.id, letter.ack_code, letter.last_error], [deadId, 'AR', 'AR: unknown test']);

      const resent = await ok('POST', `/api/admin/hl7/outbound/${deadId}/resend`, admin.token);
      assert.deepEqual([resent.status, resent.attempts, resent.control_id], ['pending', 0, 'TDEAD']);
      const again = await api('POST', `/api/admin/hl7/outbound/${deadId}/resend`, admin.token);
      assert.deepEqual([again.status, again.body.code], [409, 'not_dead']);
      const queue = await server.db.query<{ control_id: string; status: string }>(
        'select control_id, status from hl7_outbox where receiver_id = $1 order by id',
        [rx.id],
      );
      assert.deepEqual(
        queue.map((q) => [q.control_id, q.status]),
        [
          ['TDEAD', 'pending'],
          ['TLATER', 'pending'],
        ],
        'the resent letter goes first, before the message queued after it',
      );
      assert.equal(
        (
          await server.db.query(
            `select 1 from audit_log where action = 'resend' and entity = 'hl7_message' and entity_id = $1`,
            [String(deadId)],
          )
        ).length,
        1,
      );
      assert.equal(later && (await api('POST', `/api/admin/hl7/outbound/${later.id}/resend`, admin.token)).status, 409);

      await server.app.hl7Inbound.receiveMessage(
        oru('TIN1', 'NO-SUCH-ORDER', [{ code: '2823-3', value: '4.1', unit: 'mmol/L' }]),
      );
      await server.app.hl7Inbound.receiveMessage('not an HL7 message');
      const received = await ok('GET', '/api/admin/hl7/received', admin.token);
      assert.deepEqual(
        received.messages.map((m: { control_id: string | null; status: string; ack_code: string }) => [
          m.control_id,
          m.status,
          m.ack_code,
        ]),
        [
          [null, 'error', 'AR'],
          ['TIN1', 'unmatched', 'AA'],
        ],
      );
      const refused = await ok('GET', '/api/admin/hl7/received?status=error', admin.token);
      assert.equal(
        only(refused.messages as { error: string }[]).error,
        'The message does not begin with an MSH segment',
      );

      const unmatched = only(
        (await ok('GET', '/api/lab/unmatched', admin.token)).results as { id: number; code: string }[],
      );
      assert.equal(unmatched.code, '2823-3');
      await ok('POST', `/api/lab/unmatched/${unmatched.id}/reject`, admin.token, { note: 'Not our patient' }, 204);
      assert.deepEqual((await ok('GET', '/api/lab/unmatched', lab.token)).results, []);
    });

    it('answers every interfaces route to each identity as its access says', async () => {
      const identities: Record<string, string | undefined> = {
        none: undefined,
        patient: patient.token,
        lab: lab.token,
        admin: admin.token,
      };
      const routes = interfacesRoutes(server.app);
      assert.equal(await assertRoutesAnswerByAccess(server, routes, identities), routes.length * 4);
    });
  });
}
