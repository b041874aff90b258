import type { App } from '../../app.ts';
import { created, csvFile, listOf, ok } from '../answers.ts';
import { route as r, type Route } from '../router.ts';
import { DESK } from './desk.ts';

/** Inpatient care: beds and their board, admissions from request to discharge, the midnight census. */
export function inpatientRoutes(app: App): Route[] {
  return [
    r('POST', '/api/admin/rooms/{id}/beds', 'admin', async ({ params, body, actor }) =>
      created(await app.inpatient.createBed(params.id, body, actor)),
    ),
    r('PUT', '/api/admin/rooms/{id}/bed-class', 'admin', async ({ params, body, actor }) =>
      ok(await app.inpatient.setRoomClass(params.id, body, actor)),
    ),
    r('PUT', '/api/admin/beds/{id}', 'admin', async ({ params, body, actor }) =>
      ok(await app.inpatient.renameBed(params.id, body, actor)),
    ),
    r('POST', '/api/admin/beds/{id}/retire', 'admin', async ({ params, actor }) =>
      ok(await app.inpatient.retireBed(params.id, actor)),
    ),
    r('POST', '/api/beds/{id}/block', DESK, async ({ params, body, actor }) =>
      ok(await app.inpatient.blockBed(params.id, body, actor)),
    ),
    r('POST', '/api/beds/{id}/unblock', DESK, async ({ params, actor }) =>
      ok(await app.inpatient.unblockBed(params.id, actor)),
    ),
    r('POST', '/api/beds/{id}/ready', DESK, async ({ params, actor }) =>
      ok(await app.inpatient.markBedReady(params.id, actor)),
    ),
    r('GET', '/api/bed-board', ['doctor', 'nurse', ...DESK], async ({ query, actor }) =>
      ok(await app.inpatient.bedBoard(query, actor)),
    ),
    r('POST', '/api/admissions', 'doctor', async ({ body, actor }) =>
      created(await app.inpatient.requestAdmission(body, actor)),
    ),
    r('GET', '/api/admissions', ['doctor', ...DESK], async ({ query, actor }) =>
      listOf('admissions', await app.inpatient.listAdmissions(query, actor)),
    ),
    r('GET', '/api/admissions/{id}', ['doctor', ...DESK], async ({ params, actor }) =>
      ok(await app.inpatient.showAdmission(params.id, actor)),
    ),
    r('POST', '/api/admissions/{id}/cancel', ['doctor', ...DESK], async ({ params, actor }) =>
      ok(await app.inpatient.cancelAdmission(params.id, actor)),
    ),
    r('POST', '/api/admissions/{id}/reserve', DESK, async ({ params, body, actor }) =>
      ok(await app.inpatient.reserveBed({ admissionId: params.id, body }, actor)),
    ),
    r('POST', '/api/admissions/{id}/admit', DESK, async ({ params, body, actor }) =>
      ok(await app.inpatient.admitPatient({ admissionId: params.id, body }, actor)),
    ),
    r('POST', '/api/admissions/{id}/undo', DESK, async ({ params, actor }) =>
      ok(await app.inpatient.undoAdmission(params.id, actor)),
    ),
    r('POST', '/api/admissions/{id}/transfer', DESK, async ({ params, body, actor }) =>
      ok(await app.inpatient.transferPatient({ admissionId: params.id, body }, actor)),
    ),
    r('POST', '/api/admissions/{id}/discharge-order', 'doctor', async ({ params, body, actor }) =>
      ok(await app.inpatient.orderDischarge({ admissionId: params.id, body }, actor)),
    ),
    r('POST', '/api/admissions/{id}/discharge', DESK, async ({ params, actor }) =>
      ok(await app.inpatient.confirmDischarge(params.id, actor)),
    ),
    r('GET', '/api/admissions/{id}/discharge-summary', ['doctor', 'admin', 'patient'], async ({ params, actor }) =>
      ok(await app.inpatient.dischargeSummary(params.id, actor)),
    ),
    r('GET', '/api/patient/admissions', 'patient', async ({ actor }) => ok(await app.inpatient.myStays(actor))),
    r('POST', '/api/admin/interim-bills', 'admin', async ({ actor }) =>
      ok(await app.inpatient.billInterimWeeks(actor)),
    ),
    r('GET', '/api/admin/census', 'admin', async ({ query, actor }) => ok(await app.inpatient.census(query, actor))),
    r('GET', '/api/admin/census.csv', 'admin', async ({ query, actor }) =>
      csvFile(await app.inpatient.censusCsv(query, actor)),
    ),
  ];
}
