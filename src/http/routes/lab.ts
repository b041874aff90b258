import type { App } from '../../app.ts';
import { created, listOf, noContent, ok } from '../answers.ts';
import { route as r, type Route } from '../router.ts';

/** Lab orders and results (issue 48): doctors order and review, the lab works, reception sees costs, patients their results. */
export function labRoutes(app: App): Route[] {
  const lab = app.labApi;
  return [
    r('GET', '/api/lab/tests', ['admin', 'doctor'], async ({ query, actor }) =>
      listOf('tests', await lab.listCatalogue(query, actor)),
    ),
    r('POST', '/api/admin/lab/tests', 'admin', async ({ body, actor }) =>
      created(await lab.createCatalogueTest(body, actor)),
    ),
    r('PUT', '/api/admin/lab/tests/{id}', 'admin', async ({ params, body, actor }) =>
      ok(await lab.updateCatalogueTest(params.id, body, actor)),
    ),
    r('POST', '/api/lab/orders', 'doctor', async ({ body, actor }) => created(await lab.orderTests(body, actor))),
    r('GET', '/api/lab/orders/{id}', 'doctor', async ({ params, actor }) => ok(await lab.showOrder(params.id, actor))),
    r('POST', '/api/lab/orders/{id}/cancel', 'doctor', async ({ params, actor }) =>
      ok(await lab.cancelLabOrder(params.id, actor)),
    ),
    r('POST', '/api/lab/orders/{id}/review', 'doctor', async ({ params, body, actor }) =>
      ok(await lab.reviewReport(params.id, body, actor)),
    ),
    r('POST', '/api/lab/orders/{id}/release', 'doctor', async ({ params, actor }) =>
      ok(await lab.releaseReport(params.id, actor)),
    ),
    r('POST', '/api/lab/alerts/{id}/acknowledge', 'doctor', async ({ params, actor }) =>
      ok(await lab.acknowledgeAlert(params.id, actor)),
    ),
    r('GET', '/api/doctor/critical-alerts', 'doctor', async ({ actor }) =>
      ok({ alerts: await lab.criticalAlerts(actor) }),
    ),
    r('GET', '/api/doctor/results-to-review', 'doctor', async ({ query, actor }) =>
      listOf('results', await lab.resultsToReview(query, actor)),
    ),
    r('GET', '/api/doctor/patients/{id}/lab-results', 'doctor', async ({ params, query, actor }) =>
      listOf('orders', await lab.patientResults(params.id, query, actor)),
    ),
    r('GET', '/api/patient/lab-results', 'patient', async ({ query, actor }) =>
      listOf('results', await lab.myResults(query, actor)),
    ),
    r('GET', '/api/desk/lab-orders', ['reception', 'admin'], async ({ query, actor }) =>
      listOf('orders', await lab.orderCosts(query, actor)),
    ),
    r('GET', '/api/lab/worklist', 'lab', async ({ query, actor }) =>
      listOf('orders', await lab.worklist(query, actor)),
    ),
    r('POST', '/api/lab/items/{id}/collect', 'lab', async ({ params, body, actor }) =>
      ok(await lab.collect(params.id, body, actor)),
    ),
    r('POST', '/api/lab/items/{id}/reject', 'lab', async ({ params, body, actor }) =>
      ok(await lab.rejectCollected(params.id, body, actor)),
    ),
    r('POST', '/api/lab/items/{id}/result', 'lab', async ({ params, body, actor }) =>
      created(await lab.enterItemResult(params.id, body, actor)),
    ),
    r('POST', '/api/lab/orders/{id}/finalize', 'lab', async ({ params, actor }) =>
      ok(await lab.finalize(params.id, actor)),
    ),
    r('POST', '/api/lab/results/{id}/correct', 'lab', async ({ params, body, actor }) =>
      ok(await lab.correctResult(params.id, body, actor)),
    ),
    r('GET', '/api/lab/unmatched', ['lab', 'admin'], async ({ query, actor }) =>
      listOf('results', await lab.unmatchedResults(query, actor)),
    ),
    r('POST', '/api/lab/unmatched/{id}/attach', ['lab', 'admin'], async ({ params, body, actor }) =>
      created(await lab.attachUnmatched(params.id, body, actor)),
    ),
    r('POST', '/api/lab/unmatched/{id}/reject', ['lab', 'admin'], async ({ params, body, actor }) => {
      await lab.rejectUnmatched(params.id, body, actor);
      return noContent();
    }),
  ];
}
