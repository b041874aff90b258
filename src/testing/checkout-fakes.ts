/** Card checkouts over an array, for the billing module's unit tests. */
import type { Checkout, CheckoutStore } from '../domain/billing/ports.ts';

export function fakeCheckoutStore() {
  const rows: Checkout[] = [];
  const events = new Set<string>();
  const paymentOf = new Map<number, number>();
  const copy = (c: Checkout | undefined) => c && { ...c };
  const store: CheckoutStore = {
    underWay: async (billingId, now) => {
      for (const c of rows.filter((r) => r.billingId === billingId)) {
        if (c.status === 'open' && c.expiresAt <= now) c.status = 'expired';
      }
      return copy(rows.find((c) => c.billingId === billingId && (c.status === 'opening' || c.status === 'open')));
    },
    create: async (c) => {
      const checkout: Checkout = { ...c, id: rows.length + 1, status: 'opening', sessionId: null, url: null };
      rows.push(checkout);
      return { ...checkout };
    },
    opened: async (id, { sessionId, url }) => {
      const c = rows.find((r) => r.id === id);
      if (!c) throw new Error(`no checkout ${id}`);
      Object.assign(c, { sessionId, url, status: c.status === 'opening' ? 'open' : c.status });
      return { ...c };
    },
    failed: async (id) => {
      const c = rows.find((r) => r.id === id && r.status === 'opening');
      if (c) c.status = 'failed';
    },
    find: async (id) => copy(rows.find((r) => r.id === id)),
    findBySession: async (sessionId) => copy(rows.find((r) => r.sessionId === sessionId)),
    claimPaid: async (id) => {
      const c = rows.find((r) => r.id === id && r.status !== 'paid');
      if (c) c.status = 'paid';
      return c !== undefined;
    },
    expire: async (sessionId) => {
      const c = rows.find((r) => r.sessionId === sessionId && (r.status === 'opening' || r.status === 'open'));
      if (c) c.status = 'expired';
    },
    firstDelivery: async (eventId) => {
      if (events.has(eventId)) return false;
      events.add(eventId);
      return true;
    },
  };
  return { store, rows, paymentOf };
}
