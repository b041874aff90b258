import type { App } from '../../app.ts';
import { created, csvFile, listOf, ok } from '../answers.ts';
import { rawBody, route as r, type Route } from '../router.ts';
import { DESK } from './desk.ts';
import { linkOrigin } from '../link-origin.ts';
import { checkoutReturnLink } from '../../links.ts';

/** Billing: bills, payments and receipts. */
export function billingRoutes(app: App, { publicUrl }: { publicUrl?: string }): Route[] {
  const origin = (https: boolean, headers: { host?: string }) => linkOrigin(publicUrl, https, headers.host);
  return [
    r('GET', '/api/patients/{id}/billings', DESK, async ({ params, query, actor }) =>
      listOf('billings', await app.billing.listPatientBills(params.id, query, actor)),
    ),
    r('GET', '/api/patient/billings', 'patient', async ({ query, actor }) =>
      listOf('billings', await app.billing.listMyBills(query, actor)),
    ),
    r('GET', '/api/patient/balance', 'patient', async ({ actor }) => ok(await app.billing.myBalance(actor))),
    r('GET', '/api/patient/payment-options', 'patient', async ({ actor }) => ok(app.billing.paymentOptions(actor))),
    r('POST', '/api/patient/billings/{id}/pay', 'patient', async ({ params, body, actor, https, headers }) => {
      const back = origin(https, headers);
      const [successUrl, cancelUrl] = [checkoutReturnLink(back, 'paid'), checkoutReturnLink(back, 'cancelled')];
      return ok(await app.billing.payBill({ billingId: params.id, body, successUrl, cancelUrl }, actor));
    }),
    rawBody(
      r('POST', '/api/card-payments/webhook', 'public', async ({ body, headers }) => {
        const signature = headers['stripe-signature'];
        return ok(
          await app.billing.receiveCardEvent({
            payload: body instanceof Uint8Array ? body : new Uint8Array(),
            signature: typeof signature === 'string' ? signature : undefined,
          }),
        );
      }),
    ),
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
