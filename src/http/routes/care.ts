import type { App } from '../../app.ts';
import { created, listOf } from '../answers.ts';
import { route as r, type Route } from '../router.ts';

/** Care-team access: a doctor breaks the glass, admins see who did, a patient sees who opened their record. */
export function careRoutes(app: App): Route[] {
  return [
    r('POST', '/api/doctor/patients/{id}/break-glass', 'doctor', async ({ params, body, actor }) =>
      created(await app.care.breakGlass({ patientId: params.id, body }, actor)),
    ),
    r('GET', '/api/admin/break-glass', 'admin', async ({ query, actor }) =>
      listOf('accesses', await app.care.listBreakGlass(query, actor)),
    ),
    r('GET', '/api/patient/record-openings', 'patient', async ({ query, actor }) =>
      listOf('openings', await app.care.myRecordOpenings(query, actor)),
    ),
  ];
}
