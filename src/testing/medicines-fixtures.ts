import assert from 'node:assert/strict';
import { present } from './assert.ts';
import { PASSWORD, signIn, signUpAdmin, startTestServer, uniqueEmail } from './http.ts';
import { clinicFixtures } from './records-fixtures.ts';
import { movableClock } from './scheduling-fakes.ts';
import type { testDatabases } from './test-db.ts';

/** A server with a ward doctor, reception, a nurse of the ward and one of another, a ward of six beds and helpers to admit and order on it. */
export async function medicinesClinic(target: ReturnType<typeof testDatabases>[number], billMedicines = false) {
  const clock = movableClock('2026-05-04T06:00:00Z');
  const server = await startTestServer(target, { clock, billMedicines });
  const fx = clinicFixtures(server);
  const admin = await signUpAdmin(server);
  const deskEmail = uniqueEmail('reception');
  await server.api('POST', '/api/admin/receptionists', {
    token: admin.token,
    body: { name: 'Rita Reception', email: deskEmail, password: PASSWORD },
  });
  const desk = await signIn(server, deskEmail);
  const doctor = await fx.doctor('Dr. Meds');
  const api = (method: string, path: string, token: string | undefined, body?: unknown) =>
    server.api(method, path, { token, body });
  const ok = async (method: string, path: string, token: string, body?: unknown, status = 200) => {
    const res = await api(method, path, token, body);
    assert.equal(res.status, status, `${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const department = await ok('POST', '/api/admin/departments', admin.token, { name: 'Medical ward' }, 201);
  const room = await ok('POST', '/api/admin/rooms', admin.token, { name: 'Room 1', department_id: department.id }, 201);
  const nurse = await fx.nurse(department.id, 'Nora Ward');
  const otherWard = await ok('POST', '/api/admin/departments', admin.token, { name: 'Surgical ward' }, 201);
  const nurseElsewhere = await fx.nurse(otherWard.id, 'Olga Elsewhere');
  const beds: number[] = [];
  for (const label of ['B1', 'B2', 'B3', 'B4', 'B5', 'B6'])
    beds.push((await ok('POST', `/api/admin/rooms/${room.id}/beds`, admin.token, { label }, 201)).id);
  const medicines: Record<string, number> = {};
  for (const row of await server.db.query<{ id: number; generic_name: string; form: string }>(
    'select id, generic_name, form from formulary',
  ))
    medicines[`${row.generic_name} ${row.form}`] = row.id;
  const medicine = (name: string) => present(medicines[name], name);
  /** The patient admitted by the doctor into the next free bed; the visit before puts the doctor in the care team. */
  const admit = async (patientId: number) => {
    await fx.appointment({ doctor, patientId, date: '2026-05-04', status: 'completed' });
    const { id } = await ok(
      'POST',
      '/api/admissions',
      doctor.token,
      { patient_id: patientId, department_id: department.id, expected_nights: 3, reason: 'Pneumonia' },
      201,
    );
    await ok('POST', `/api/admissions/${id}/admit`, desk.token, { bed_id: present(beds.shift(), 'a free bed') });
    return id as number;
  };
  /** Moves the clock; the test's sessions stay signed in across the hours it travels. */
  const at = async (iso: string) => {
    clock.set(iso);
    await server.db.query(`update sessions set expires_at = '2100-01-01T00:00:00Z' where revoked_at is null`);
  };
  return {
    at,
    server,
    fx,
    admin,
    desk,
    doctor,
    nurse,
    nurseElsewhere,
    api,
    ok,
    medicine,
    admit,
    wardId: department.id as number,
  };
}
