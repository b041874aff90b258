import type { CardPayments } from './domain/billing/ports.ts';

/**
 * The default card processor: none. No card processor is connected yet, so a patient's card payment is recorded as
 * paid, as the spec's Pay does, and no card is charged. A real processor replaces this adapter in app.ts.
 */
export const recordOnlyCardPayments: CardPayments = {
  charge: async () => {},
};
