import type { App } from '../../app.ts';
import { created, listOf, ok } from '../answers.ts';
import { route as r, type Route } from '../router.ts';

/** Medicines (issue 50): the formulary, allergies, prescriptions and inpatient orders, the ward's MAR. */
export function medicineRoutes(app: App): Route[] {
  const m = app.medicines;
  return [
    r('GET', '/api/formulary', ['admin', 'doctor', 'nurse'], async ({ query }) =>
      listOf('medicines', await m.listFormulary(query)),
    ),
    r('POST', '/api/admin/formulary', 'admin', async ({ body, actor }) => created(await m.createMedicine(body, actor))),
    r('PUT', '/api/admin/formulary/{id}', 'admin', async ({ params, body, actor }) =>
      ok(await m.updateMedicine(params.id, body, actor)),
    ),
    r('GET', '/api/patients/{id}/allergies', ['admin', 'doctor', 'nurse'], async ({ params, actor }) =>
      ok(await m.patientAllergies(params.id, actor)),
    ),
    r('POST', '/api/patients/{id}/allergies', ['doctor', 'nurse'], async ({ params, body, actor }) =>
      created(await m.recordAllergy(params.id, body, actor)),
    ),
    r('PUT', '/api/allergies/{id}/status', ['doctor', 'nurse'], async ({ params, body, actor }) =>
      ok(await m.setAllergyStatus(params.id, body, actor)),
    ),
    r('POST', '/api/medication-orders', 'doctor', async ({ body, actor }) => created(await m.prescribe(body, actor))),
    r('GET', '/api/medication-orders/{id}', ['admin', 'doctor', 'nurse', 'patient'], async ({ params, actor }) =>
      ok(await m.showOrder(params.id, actor)),
    ),
    r('GET', '/api/medication-orders/{id}/printout', ['doctor', 'patient'], async ({ params, actor }) =>
      ok(await m.printout(params.id, actor)),
    ),
    r('POST', '/api/medication-orders/{id}/discontinue', 'doctor', async ({ params, body, actor }) =>
      ok(await m.discontinue(params.id, body, actor)),
    ),
    r('POST', '/api/medication-orders/{id}/doses', ['doctor', 'nurse'], async ({ params, body, actor }) =>
      created(await m.giveAsNeeded(params.id, body, actor)),
    ),
    r('POST', '/api/medication-doses/{id}/record', ['doctor', 'nurse'], async ({ params, body, actor }) =>
      ok(await m.recordDose(params.id, body, actor)),
    ),
    r('GET', '/api/patients/{id}/medicines', ['admin', 'doctor', 'nurse'], async ({ params, query, actor }) =>
      listOf('orders', await m.patientMedicines(params.id, query, actor)),
    ),
    r('GET', '/api/patient/prescriptions', 'patient', async ({ query, actor }) =>
      listOf('orders', await m.myPrescriptions(query, actor)),
    ),
    r('GET', '/api/wards/{id}/mar', ['doctor', 'nurse'], async ({ params, query, actor }) =>
      ok(await m.wardMar(params.id, query, actor)),
    ),
  ];
}
