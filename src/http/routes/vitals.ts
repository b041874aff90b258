import type { App } from '../../app.ts';
import { created, ok } from '../answers.ts';
import { route as r, type Route } from '../router.ts';

const WARD_STAFF = ['nurse', 'doctor'] as const;
const READERS = ['nurse', 'doctor', 'admin'] as const;

/** Vital signs, NEWS2, the flowsheet, fluid balance and nursing notes (issue 49). */
export function vitalsRoutes(app: App): Route[] {
  const vitals = app.vitals;
  return [
    r('POST', '/api/vitals/sets', [...WARD_STAFF], async ({ body, headers, actor }) => {
      const idempotencyKey = headers['idempotency-key'] as string | undefined;
      const { set, created: isNew } = await vitals.recordVitalSet({ body, idempotencyKey }, actor);
      return isNew ? created(set) : ok(set);
    }),
    r('GET', '/api/vitals/sets/{id}', [...READERS], async ({ params, actor }) =>
      ok(await vitals.showVitalSet(params.id, actor)),
    ),
    r('POST', '/api/vitals/sets/{id}/correct', [...WARD_STAFF], async ({ params, body, actor }) =>
      ok(await vitals.correctVitalSet({ id: params.id, body }, actor)),
    ),
    r('GET', '/api/admissions/{id}/flowsheet', [...READERS], async ({ params, actor }) =>
      ok(await vitals.flowsheet(params.id, actor)),
    ),
    r('PUT', '/api/admissions/{id}/spo2-scale', 'doctor', async ({ params, body, actor }) =>
      ok(await vitals.setSpo2Scale({ admissionId: params.id, body }, actor)),
    ),
    r('GET', '/api/doctor/news2-alerts', 'doctor', async ({ actor }) => ok(await vitals.news2Alerts(actor))),
    r('POST', '/api/admissions/{id}/fluids', [...WARD_STAFF], async ({ params, body, headers, actor }) => {
      const idempotencyKey = headers['idempotency-key'] as string | undefined;
      return created(await vitals.addFluid({ admissionId: params.id, body, idempotencyKey }, actor));
    }),
    r('GET', '/api/admissions/{id}/fluid-balance', [...READERS], async ({ params, actor }) =>
      ok(await vitals.fluidBalance(params.id, actor)),
    ),
    r('POST', '/api/admissions/{id}/nursing-notes', [...WARD_STAFF], async ({ params, body, actor }) =>
      created(await vitals.addNursingNote({ admissionId: params.id, body }, actor)),
    ),
    r('GET', '/api/admissions/{id}/nursing-notes', [...READERS], async ({ params, actor }) =>
      ok(await vitals.nursingNotes(params.id, actor)),
    ),
  ];
}
