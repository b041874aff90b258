import Stripe from 'stripe';
import { CURRENCY } from './domain/billing/billing.ts';
import type { CardCheckout, CardEvent } from './domain/billing/ports.ts';
import { malformed, unavailable } from './domain/shared/errors.ts';

export interface StripeSettings {
  /** STRIPE_SECRET_KEY: `sk_test_…` in Stripe's test mode, `sk_live_…` for real cards. */
  secretKey: string;
  /** STRIPE_WEBHOOK_SECRET: the `whsec_…` of the webhook endpoint that sends Medora its events. */
  webhookSecret: string;
  /** STRIPE_API_URL: another address for Stripe's API (a stand-in for tests); Stripe's own when unset. */
  apiUrl?: string;
}

type StripeEvent = ReturnType<Stripe['webhooks']['constructEvent']>;

/** Stripe Checkout through Stripe's own SDK: the patient pays on Stripe's page, Stripe's signed webhook says so. */
export function stripeCardCheckout(settings: StripeSettings): CardCheckout {
  const api = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
  const stripe = new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(api && {
      host: api.hostname,
      port: api.port || (api.protocol === 'https:' ? 443 : 80),
      protocol: api.protocol === 'http:' ? 'http' : 'https',
    }),
  });
  return {
    open: async (request) => {
      let session: Awaited<ReturnType<typeof stripe.checkout.sessions.create>>;
      try {
        session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: CURRENCY.toLowerCase(),
                  unit_amount: request.amountCents,
                  product_data: { name: `Bill ${request.billNumber}: ${request.service}` },
                },
              },
            ],
            client_reference_id: String(request.checkoutId),
            metadata: { checkout_id: String(request.checkoutId), bill_number: request.billNumber },
            ...(request.email !== null && { customer_email: request.email }),
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
            expires_at: Math.floor(request.expiresAt.getTime() / 1000),
          },
          // A retry of this very checkout (the SDK's own, after a dropped connection) opens no second one.
          { idempotencyKey: `medora-checkout-${request.checkoutId}` },
        );
      } catch (error) {
        console.error('Stripe refused to open a checkout', error);
        throw unavailable(
          'card_processor_unavailable',
          'The card payment service cannot be reached; please try again later',
        );
      }
      if (!session.url)
        throw unavailable('card_processor_unavailable', 'The card payment service gave no page to pay on');
      return { sessionId: session.id, url: session.url };
    },
    verify: (payload, signature) => {
      let event: StripeEvent;
      try {
        event = stripe.webhooks.constructEvent(Buffer.from(payload), signature, settings.webhookSecret);
      } catch {
        throw malformed('bad_signature', "The webhook's Stripe-Signature does not hold");
      }
      return cardEvent(event);
    },
  };
}

/** The events Medora acts on; every other is received and left alone. */
function cardEvent(event: StripeEvent): CardEvent {
  const base = { id: event.id, type: event.type };
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      // A completed checkout of a delayed method is not paid yet; its async_payment_succeeded will be.
      if (session.payment_status !== 'paid') return { ...base, kind: 'other' };
      const checkoutId = Number(session.client_reference_id);
      return {
        ...base,
        kind: 'paid',
        sessionId: session.id,
        checkoutId: Number.isSafeInteger(checkoutId) && checkoutId > 0 ? checkoutId : null,
        amountCents: session.amount_total ?? 0,
      };
    }
    case 'checkout.session.expired':
      return { ...base, kind: 'expired', sessionId: event.data.object.id };
    default:
      return { ...base, kind: 'other' };
  }
}
