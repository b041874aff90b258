import type { App } from '../../app.ts';
import { created, listOf, ok } from '../answers.ts';
import { accountChange, route as r, type Route } from '../router.ts';
import { DESK } from './desk.ts';

/** Patients: the front desk's and the admin's patient lists and details, a patient's own profile and records. */
export function patientRoutes(app: App): Route[] {
  return [
    r('GET', '/api/admin/patients', 'admin', async ({ query, actor }) =>
      listOf('patients', await app.patients.listPatients(query, actor)),
    ),
    r('GET', '/api/patients', DESK, async ({ query, actor }) =>
      listOf('patients', await app.patients.listPatients(query, actor)),
    ),
    r('POST', '/api/patients', DESK, async ({ body, actor }) => created(await app.staff.registerWalkIn(body, actor))),
    r('GET', '/api/patients/duplicates', DESK, async ({ query, actor }) =>
      ok(await app.patients.possibleDuplicates(query, actor)),
    ),
    r('GET', '/api/patients/{id}', DESK, async ({ params, actor }) =>
      ok(await app.patients.deskPatient(params.id, actor)),
    ),
    r('PUT', '/api/patients/{id}', DESK, async ({ params, body, actor }) =>
      ok(await app.patients.updatePatient(params.id, body, actor)),
    ),
    r('GET', '/api/admin/patients/{id}', 'admin', async ({ params, actor }) =>
      ok(await app.patients.showPatient(params.id, actor)),
    ),
    accountChange(
      r('PUT', '/api/admin/patients/{id}', 'admin', async ({ params, body, actor }) =>
        ok(await app.patients.updatePatient(params.id, body, actor)),
      ),
    ),
    r('GET', '/api/patient/profile', 'patient', async ({ actor }) => ok(await app.patients.myProfile(actor))),
    r('GET', '/api/patient/records', 'patient', async ({ actor }) => ok(await app.patients.myRecords(actor))),
    accountChange(
      r('PUT', '/api/patient/profile', 'patient', async ({ body, actor }) =>
        ok(await app.patients.updateMyProfile(body, actor)),
      ),
    ),
  ];
}
