import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { only } from '../testing/assert.ts';
import { PASSWORD, signIn, signUpAdmin, startTestServer, uniqueEmail, type TestServer } from '../testing/http.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { movableClock } from '../testing/scheduling-fakes.ts';
import { testDatabases } from '../testing/test-db.ts';
import { careTeam } from '../db/care.pg.ts';
import { accountRoutes } from './routes/accounts.ts';
import { assertRoutesAnswerByAccess } from '../testing/route-access.ts';

interface BoardJson {
  wards: { id: number; rooms: { beds: { occupant: { patient: { id: number } } | null }[] }[] }[];
}

for (const target of testDatabases('one')) {
  describe(`nurses over HTTP on ${target.name}`, () => {
    let server: TestServer;
    let fx: ReturnType<typeof clinicFixtures>;
    let admin: { token: string };

    const api = (method: string, path: string, token: string | undefined, body?: unknown) =>
      server.api(method, path, { token, body });
    const ok = async (method: string, path: string, token: string, body?: unknown, status = 200) => {
      const res = await api(method, path, token, body);
      assert.equal(res.status, status, `${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };

    before(async () => {
      server = await startTestServer(target, { clock: movableClock('2026-05-04T08:00:00Z') });
      fx = clinicFixtures(server);
      admin = await signUpAdmin(server);
    });
    after(() => server.close());

    it('lets an admin add a nurse to a department, list them with it and deactivate them', async () => {
      const north = await fx.ward('Nurses North', 1);
      const email = uniqueEmail('nina');
      const body = { name: 'Nina North', email, password: PASSWORD, department_id: north.departmentId };
      const nowhere = await api('POST', '/api/admin/nurses', admin.token, { ...body, department_id: 999999 });
      assert.deepEqual([nowhere.status, Object.keys(nowhere.body.errors)], [422, ['department_id']]);
      const missing = await api('POST', '/api/admin/nurses', admin.token, { ...body, department_id: undefined });
      assert.deepEqual([missing.status, Object.keys(missing.body.errors)], [422, ['department_id']]);
      const made = await ok('POST', '/api/admin/nurses', admin.token, body, 201);
      assert.deepEqual([made.role, made.department], ['nurse', { id: north.departmentId, name: 'Nurses North' }]);
      assert.equal((await api('POST', '/api/admin/nurses', admin.token, body)).status, 409);
      const listed = only(
        (await ok('GET', '/api/admin/nurses?q=nina', admin.token)).nurses as { id: number; created_at: string }[],
      );
      assert.deepEqual(listed, { ...made, created_at: listed.created_at });

      const nurse = await signIn(server, email);
      assert.equal((await api('GET', '/api/bed-board', nurse.token)).status, 200);
      assert.equal((await api('POST', '/api/admin/nurses', nurse.token, body)).status, 403);
      assert.deepEqual(await ok('DELETE', `/api/admin/nurses/${made.id}`, admin.token), { id: made.id, active: false });
      assert.equal((await api('GET', '/api/bed-board', nurse.token)).status, 401);
      const again = await api('DELETE', `/api/admin/nurses/${made.id}`, admin.token);
      assert.equal(again.status, 200);
      const doctor = await fx.doctor('Dr. Not A Nurse');
      const doctorUser = only(
        await server.db.query<{ user_id: number }>('select user_id from doctors where id = $1', [doctor.doctorId]),
      );
      assert.equal((await api('DELETE', `/api/admin/nurses/${doctorUser.user_id}`, admin.token)).status, 404);
    });

    it("shows a nurse their own ward's board only, and reaches only the patients in its beds", async () => {
      const east = await fx.ward('Nurses East', 2);
      const west = await fx.ward('Nurses West', 1);
      const doctor = await fx.doctor('Dr. East');
      const inEast = await fx.patient('Ella East');
      const inWest = await fx.patient('Walt West');
      const outpatient = await fx.patient('Otto Out');
      const [eastBed] = east.bedIds;
      const [westBed] = west.bedIds;
      const at = '2026-05-03T10:00:00Z';
      await fx.admit({ ...east, patientId: inEast.patientId, doctorId: doctor.doctorId, bedId: eastBed ?? 0, at });
      await fx.admit({ ...west, patientId: inWest.patientId, doctorId: doctor.doctorId, bedId: westBed ?? 0, at });
      const nurse = await fx.nurse(east.departmentId, 'Edna East');

      for (const query of ['', `?department_id=${west.departmentId}`]) {
        const board: BoardJson = await ok('GET', `/api/bed-board${query}`, nurse.token);
        assert.deepEqual(
          board.wards.map((w) => w.id),
          [east.departmentId],
        );
        const occupants = board.wards.flatMap((w) => w.rooms.flatMap((r) => r.beds.map((b) => b.occupant?.patient.id)));
        assert.deepEqual(occupants, [inEast.patientId, undefined]);
      }

      const reach = careTeam(server.db);
      const ids = [inEast.patientId, inWest.patientId, outpatient.patientId];
      assert.deepEqual([...(await reach.onWard(east.departmentId, ids))], [inEast.patientId]);
      await server.db.query(`update admissions set status = 'discharge_ordered' where patient_id = $1`, [
        inEast.patientId,
      ]);
      assert.deepEqual([...(await reach.onWard(east.departmentId, ids))], [inEast.patientId]);
      await server.db.query(`update admissions set status = 'discharged' where patient_id = $1`, [inEast.patientId]);
      assert.deepEqual([...(await reach.onWard(east.departmentId, ids))], []);
    });

    it('answers the nurse accounts routes to each identity as their access says, and a nurse no bills or records', async () => {
      const south = await fx.ward('Nurses South', 1);
      const identities: Record<string, string | undefined> = {
        none: undefined,
        patient: (await fx.patient('Pia Patient')).token,
        doctor: (await fx.doctor('Dr. South')).token,
        admin: admin.token,
        nurse: (await fx.nurse(south.departmentId, 'Sam South')).token,
      };
      const routes = accountRoutes(server.app, {}).filter((route) => route.path.startsWith('/api/admin/nurses'));
      assert.equal(routes.length, 3);
      await assertRoutesAnswerByAccess(server, routes, identities);
      for (const path of [
        '/api/admin/billings',
        '/api/patients/1/billings',
        '/api/billings/1/receipt',
        '/api/doctor/patients/1',
        '/api/admissions',
      ])
        assert.equal((await api('GET', path, identities.nurse)).status, 403, path);
    });
  });
}
