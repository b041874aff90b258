import assert from 'node:assert/strict';
import { only, present } from './assert.ts';
import { PASSWORD, signIn, uniqueEmail, type TestServer } from './http.ts';
import type { clinicFixtures } from './records-fixtures.ts';

type Doctor = Awaited<ReturnType<ReturnType<typeof clinicFixtures>['doctor']>>;

/** A lab order taken over HTTP to a result, for tests of what follows a result: alerts, release, corrections. */
export function labFixtures(server: TestServer, fx: ReturnType<typeof clinicFixtures>, admin: { token: string }) {
  const ok = async (method: string, path: string, token: string, body?: unknown, status = 200) => {
    const res = await server.api(method, path, { token, body });
    assert.equal(res.status, status, `${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const testId = async (code: string) =>
    only(await server.db.query<{ id: number }>('select id from lab_tests where code = $1', [code])).id;
  return {
    ok,
    /** A receptionist or lab technician, signed in. */
    async staff(kind: 'receptionists' | 'lab-technicians', name: string) {
      const email = uniqueEmail(name.toLowerCase().replace(/\W/g, ''));
      await ok('POST', `/api/admin/${kind}`, admin.token, { name, email, password: PASSWORD }, 201);
      return signIn(server, email);
    },
    /** A department with these doctors in it. */
    async department(name: string, doctors: Doctor[]) {
      const [row] = await server.db.query<{ id: number }>('insert into departments (name) values ($1) returning id', [
        name,
      ]);
      const id = present(row).id;
      for (const d of doctors)
        await server.db.query('update doctors set department_id = $1 where id = $2', [id, d.doctorId]);
      return id;
    },
    /** A doctor's order of one test at a visit, collected and given a quantity by `lab`: its ids. */
    async resulted(
      doctor: Doctor,
      patientId: number,
      lab: { token: string },
      code: string,
      value: number,
      unit: string,
    ) {
      const appointmentId = await fx.appointment({ doctor, patientId, date: '2026-05-04' });
      const placed = await ok(
        'POST',
        '/api/lab/orders',
        doctor.token,
        { appointment_id: appointmentId, test_ids: [await testId(code)] },
        201,
      );
      const found = await ok('GET', `/api/lab/worklist?order_number=${placed.order_number}`, lab.token);
      const item = only(only(found.orders as { items: { id: number }[] }[]).items);
      await ok('POST', `/api/lab/items/${item.id}/collect`, lab.token, { specimen_code: `S-${item.id}` });
      const result = await ok(
        'POST',
        `/api/lab/items/${item.id}/result`,
        lab.token,
        { type: 'quantity', value, unit },
        201,
      );
      return {
        orderId: placed.id as number,
        orderNumber: placed.order_number as string,
        itemId: item.id,
        observationId: result.observation_id as number,
      };
    },
  };
}
