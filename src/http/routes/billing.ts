import type { App } from '../../app.ts';
import { created, csvFile, listOf, ok } from '../answers.ts';
import { route as r, type Route } from '../router.ts';
import { DESK } from './desk.ts';

/** Billing: bills, payments and receipts. */
export function billingRoutes(app: App): Route[] {
  return [
    r('GET', '/api/patients/{id}/billings', DESK, async ({ params, query, actor }) =>
      listOf('billings', await app.billing.listPatientBills(params.id, query, actor)),
    ),
    r('GET', '/api/patient/billings', 'patient', async ({ query, actor }) =>
      listOf('billings', await app.billing.listMyBills(query, actor)),
    ),
    r('GET', '/api/patient/balance', 'patient', async ({ actor }) => ok(await app.billing.myBalance(actor))),
    r('POST', '/api/patient/billings/{id}/pay', 'patient', async ({ params, headers, body, actor }) => {
      const idempotencyKey = headers['idempotency-key'] as string | undefined; // node joins a repeated header into one string
      return ok(await app.billing.payBill({ billingId: params.id, idempotencyKey, body }, actor));
    }),
    r('POST', '/api/billings/{id}/payments', DESK, async ({ params, headers, body, actor }) => {
      const idempotencyKey = headers['idempotency-key'] as string | undefined;
      return ok(await app.billing.takePayment({ billingId: params.id, idempotencyKey, body }, actor));
    }),
    r('POST', '/api/billings/{id}/adjustments', DESK, async ({ params, headers, body, actor }) => {
      const idempotencyKey = headers['idempotency-key'] as string | undefined;
      return created(await app.billing.adjustBill({ billingId: params.id, idempotencyKey, body }, actor));
    }),
    r('GET', '/api/desk/takings', DESK, async ({ query, actor }) => ok(await app.billing.takings(query, actor))),
    r('GET', '/api/desk/takings.csv', DESK, async ({ query, actor }) =>
      csvFile(await app.billing.takingsCsv(query, actor)),
    ),
    r('GET', '/api/billings/{id}/receipt', ['patient', ...DESK], async ({ params, actor }) =>
      ok(await app.billing.billReceipt(params.id, actor)),
    ),
  ];
}
