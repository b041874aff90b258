import assert from 'node:assert/strict';
import { PASSWORD, signIn, uniqueEmail, type TestServer } from './http.ts';
import { present } from './assert.ts';

/** What a result of one test is entered as, by the test's catalogue code. */
export type LabValue =
  | { type: 'quantity'; value: number; unit: string }
  | { type: 'coded'; code: string }
  | { type: 'text'; text: string };

interface WorkItem {
  id: number;
  code: string;
  specimen_type: string;
  result: { observation_id: number } | null;
}

/**
 * Lab orders taken through the HTTP API as a doctor and the lab do: ordered from a visit or a stay, each test
 * collected and resulted, signed off, and released when asked. Catalogue tests are named by their codes.
 */
export function labFixtures(server: TestServer, admin: { token: string }) {
  let lab: { token: string } | undefined;
  let tests: Map<string, number> | undefined;
  /** The answer's body, asserting its status: `status` when given, else any success. */
  const ok = async (method: string, path: string, token: string, body?: unknown, status?: number) => {
    const res = await server.api(method, path, { token, body });
    const said = `${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`;
    if (status === undefined) assert.ok(res.status < 300, said);
    else assert.equal(res.status, status, said);
    return res.body;
  };
  const technician = async () => {
    if (!lab) {
      const email = uniqueEmail('lab');
      await ok('POST', '/api/admin/lab-technicians', admin.token, { name: 'Lee Lab', email, password: PASSWORD });
      lab = await signIn(server, email);
    }
    return lab;
  };
  const testIds = async () => {
    tests ??= new Map(
      (await server.db.query<{ id: number; code: string }>('select id, code from lab_tests')).map((t) => [
        t.code,
        t.id,
      ]),
    );
    return tests;
  };

  return {
    ok,
    technician,
    /** A receptionist or lab technician, signed in. */
    async staff(kind: 'receptionists' | 'lab-technicians', name: string) {
      const email = uniqueEmail(name.toLowerCase().replace(/\W/g, ''));
      await ok('POST', `/api/admin/${kind}`, admin.token, { name, email, password: PASSWORD }, 201);
      return signIn(server, email);
    },
    /** A department with these doctors in it: its id. */
    async department(name: string, doctors: { doctorId: number }[]) {
      const [row] = await server.db.query<{ id: number }>('insert into departments (name) values ($1) returning id', [
        name,
      ]);
      const id = present(row).id;
      for (const d of doctors)
        await server.db.query('update doctors set department_id = $1 where id = $2', [id, d.doctorId]);
      return id;
    },
    /** Every LOINC code of the catalogue. */
    loincCodes: async () =>
      new Set(
        (await server.db.query<{ code: string }>(`select code from lab_tests where code_system = 'loinc'`)).map(
          (t) => t.code,
        ),
      ),

    /**
     * An order of `results`' tests by `doctor` from the visit `appointmentId` or the stay `admissionId`; each test
     * collected and resulted, the report signed off unless `finalize` is false, released when `release`.
     */
    async order(o: {
      doctor: { token: string };
      appointmentId?: number;
      admissionId?: number;
      results: Record<string, LabValue | null>;
      finalize?: boolean;
      release?: boolean;
    }) {
      const ids = await testIds();
      const tech = await technician();
      const placed = await ok('POST', '/api/lab/orders', o.doctor.token, {
        ...(o.appointmentId === undefined ? { admission_id: o.admissionId } : { appointment_id: o.appointmentId }),
        test_ids: Object.keys(o.results).map((code) => present(ids.get(code), code)),
        priority: 'routine',
        note: 'Routine check',
      });
      const items = async () =>
        present((await ok('GET', `/api/lab/worklist?order_number=${placed.order_number}`, tech.token)).orders[0])
          .items as WorkItem[];
      const observations: Record<string, number> = {};
      for (const item of await items()) {
        const value = o.results[item.code];
        if (value === null || value === undefined) continue;
        if (item.specimen_type !== 'none')
          await ok('POST', `/api/lab/items/${item.id}/collect`, tech.token, { specimen_code: `S-${item.id}` });
        const saved = await ok('POST', `/api/lab/items/${item.id}/result`, tech.token, value);
        observations[item.code] = saved.observation_id;
      }
      if (o.finalize ?? true) await ok('POST', `/api/lab/orders/${placed.id}/finalize`, tech.token);
      if (o.release) await ok('POST', `/api/lab/orders/${placed.id}/release`, o.doctor.token);
      const report = present(
        (await server.db.query<{ id: number }>('select id from lab_reports where order_id = $1', [placed.id]))[0],
      ).id;
      const itemIds = Object.fromEntries((await items()).map((i) => [i.code, i.id]));
      return {
        id: placed.id as number,
        orderNumber: placed.order_number as string,
        report,
        observations,
        items: itemIds,
      };
    },
  };
}
