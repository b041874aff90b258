/**
 * A stand-in for Stripe's API, for tests that cannot reach Stripe: it answers the one call Medora makes
 * (`POST /v1/checkout/sessions`, https://docs.stripe.com/api/checkout/sessions/create) with a Checkout Session as
 * Stripe documents it, serves a page standing in for Stripe's hosted checkout, and delivers webhook events signed
 * with Stripe's own SDK (`webhooks.generateTestHeaderString`) as Stripe signs them.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export const STAND_IN_SECRET_KEY = 'sk_test_stand_in';
export const STAND_IN_WEBHOOK_SECRET = 'whsec_stand_in';

/** A Checkout Session as the stand-in keeps it, in Stripe's own fields. */
export interface StandInSession {
  id: string;
  object: 'checkout.session';
  mode: 'payment';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  expires_at: number;
  created: number;
  livemode: false;
  url: string | null;
}

export interface StripeStandIn {
  /** The API's address, for STRIPE_API_URL. */
  url: string;
  /** Every Checkout Session created, in order. */
  sessions: StandInSession[];
  /** Requests refused for a missing or wrong secret key. */
  unauthorized: number;
  /** Where webhook events go: Medora's `/api/card-payments/webhook`. */
  webhookUrl: string | undefined;
  /** The event Stripe sends for `session`, e.g. `checkout.session.completed`, with the session as it would be then. */
  event(session: StandInSession, type: string, id?: string): string;
  /** Delivers `payload` signed with `secret` (the webhook's, unless a forgery is wanted); answers Medora's status. */
  deliver(payload: string, secret?: string): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

const readText = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

const signer = new Stripe(STAND_IN_SECRET_KEY);

export async function startStripeStandIn(): Promise<StripeStandIn> {
  let eventCount = 0;
  const standIn: StripeStandIn = {
    url: '',
    sessions: [],
    unauthorized: 0,
    webhookUrl: undefined,
    event(session, type, id = `evt_stand_in_${++eventCount}`) {
      const paid = type === 'checkout.session.completed' || type === 'checkout.session.async_payment_succeeded';
      const object = {
        ...session,
        ...(paid && { status: 'complete', payment_status: 'paid', url: null }),
        ...(type === 'checkout.session.expired' && { status: 'expired', url: null }),
      };
      return JSON.stringify({
        id,
        object: 'event',
        api_version: '2026-11-18.endive',
        created: Math.floor(Date.now() / 1000),
        type,
        data: { object },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
      });
    },
    async deliver(payload, secret = STAND_IN_WEBHOOK_SECRET) {
      if (!standIn.webhookUrl) throw new Error('the stand-in has no webhook address yet');
      const signature = signer.webhooks.generateTestHeaderString({ payload, secret });
      const res = await fetch(standIn.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', standIn.url);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${Date.now()}` });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      if (req.headers.authorization !== `Bearer ${STAND_IN_SECRET_KEY}`) {
        standIn.unauthorized += 1;
        return json(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      }
      const form = new URLSearchParams(await readText(req));
      const id = `cs_test_stand_in_${standIn.sessions.length + 1}`;
      const session: StandInSession = {
        id,
        object: 'checkout.session',
        mode: 'payment',
        status: 'open',
        payment_status: 'unpaid',
        amount_total: Number(form.get('line_items[0][price_data][unit_amount]')),
        currency: form.get('line_items[0][price_data][currency]') ?? 'usd',
        client_reference_id: form.get('client_reference_id'),
        customer_email: form.get('customer_email'),
        metadata: Object.fromEntries(
          [...form.entries()]
            .filter(([key]) => key.startsWith('metadata['))
            .map(([key, value]) => [key.slice('metadata['.length, -1), value]),
        ),
        success_url: form.get('success_url') ?? '',
        cancel_url: form.get('cancel_url') ?? '',
        expires_at: Number(form.get('expires_at')),
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        url: `${standIn.url}/c/pay/${id}`,
      };
      standIn.sessions.push(session);
      return json(200, session);
    }
    // The hosted checkout's stand-in: paying sends the signed webhook, then the patient goes back to Medora.
    const page = /^\/c\/pay\/([\w]+)(\/pay)?$/.exec(url.pathname);
    const session = page && standIn.sessions.find((s) => s.id === page[1]);
    if (session && req.method === 'GET' && !page[2]) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><title>Stand-in checkout</title><main><h1>Stand-in checkout</h1>` +
          `<p>Pay ${(session.amount_total / 100).toFixed(2)} ${session.currency.toUpperCase()}</p>` +
          `<form method="post" action="/c/pay/${session.id}/pay"><button>Pay</button></form>` +
          `<a href="${session.cancel_url}">Back</a></main></html>`,
      );
      return;
    }
    if (session && req.method === 'POST' && page[2]) {
      await standIn.deliver(standIn.event(session, 'checkout.session.completed'));
      res.writeHead(303, { location: session.success_url });
      res.end();
      return;
    }
    json(404, {
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}
