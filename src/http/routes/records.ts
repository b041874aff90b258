import type { App } from '../../app.ts';
import { created, listOf, ok } from '../answers.ts';
import { route as r, type Route } from '../router.ts';

/** Medical records: a visit recorded, a doctor's patients. */
export function recordRoutes(app: App): Route[] {
  return [
    r('POST', '/api/doctor/appointments/{id}/medical-record', 'doctor', async ({ params, body, actor }) =>
      created(await app.records.recordVisit({ appointmentId: params.id, body }, actor)),
    ),
    r('POST', '/api/medical-records/{id}/amendments', ['doctor', 'admin'], async ({ params, body, actor }) =>
      created(await app.records.amendRecord({ recordId: params.id, body }, actor)),
    ),
    r('GET', '/api/doctor/patients', 'doctor', async ({ query, actor }) =>
      listOf('patients', await app.records.listMyPatients(query, actor)),
    ),
    r('GET', '/api/doctor/patients/{id}', 'doctor', async ({ params, actor }) =>
      ok(await app.records.showMyPatient(params.id, actor)),
    ),
  ];
}
