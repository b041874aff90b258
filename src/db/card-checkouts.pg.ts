import type { Checkout, CheckoutStatus, CheckoutStore } from '../domain/billing/ports.ts';
import type { Queryable } from './db.ts';
import { onlyRow, readBack } from './rows.ts';

interface CheckoutRow {
  id: number;
  billing_id: number;
  patient_id: number;
  amount_cents: number;
  status: CheckoutStatus;
  session_id: string | null;
  url: string | null;
  expires_at: Date;
}

const COLUMNS = 'id, billing_id, patient_id, amount_cents, status, session_id, url, expires_at';

const toCheckout = (row: CheckoutRow): Checkout => ({
  id: row.id,
  billingId: row.billing_id,
  patientId: row.patient_id,
  amountCents: Number(row.amount_cents),
  status: row.status,
  sessionId: row.session_id,
  url: row.url,
  expiresAt: row.expires_at,
});

/** Online card checkouts and the card processor's webhook events (migration 0057). */
export function checkoutStore(db: Queryable): CheckoutStore {
  const one = async (where: string, value: number | string) => {
    const [row] = await db.query<CheckoutRow>(`select ${COLUMNS} from card_checkouts where ${where} = $1`, [value]);
    return row ? toCheckout(row) : undefined;
  };
  return {
    underWay: async (billingId, now, openingSince) => {
      // One that can no longer be paid gives way to the next; the caller holds the bill's lock.
      await db.query(
        `update card_checkouts set status = case status when 'open' then 'expired' else 'failed' end
          where billing_id = $1 and ((status = 'open' and expires_at <= $2) or (status = 'opening' and created_at < $3))`,
        [billingId, now, openingSince],
      );
      const [row] = await db.query<CheckoutRow>(
        `select ${COLUMNS} from card_checkouts where billing_id = $1 and status in ('opening', 'open')`,
        [billingId],
      );
      return row ? toCheckout(row) : undefined;
    },
    create: async (c) => {
      const rows = await db.query<CheckoutRow>(
        `insert into card_checkouts (billing_id, patient_id, amount_cents, expires_at, created_at)
         values ($1, $2, $3, $4, $5) returning ${COLUMNS}`,
        [c.billingId, c.patientId, c.amountCents, c.expiresAt, c.createdAt],
      );
      return toCheckout(onlyRow(rows));
    },
    opened: async (id, opened) => {
      const rows = await db.query<CheckoutRow>(
        // A webhook that paid it first (Stripe's retries come fast) leaves it paid.
        `update card_checkouts set status = case status when 'opening' then 'open' else status end,
                session_id = $2, url = $3
          where id = $1 returning ${COLUMNS}`,
        [id, opened.sessionId, opened.url],
      );
      return toCheckout(readBack(rows[0], 'A checkout'));
    },
    failed: async (id) => {
      await db.query(`update card_checkouts set status = 'failed' where id = $1 and status = 'opening'`, [id]);
    },
    find: (id) => one('id', id),
    findBySession: (sessionId) => one('session_id', sessionId),
    claimPaid: async (id) => {
      const rows = await db.query(
        `update card_checkouts set status = 'paid' where id = $1 and status <> 'paid' returning id`,
        [id],
      );
      return rows.length === 1;
    },
    expire: async (sessionId) => {
      await db.query(
        `update card_checkouts set status = 'expired' where session_id = $1 and status in ('opening', 'open')`,
        [sessionId],
      );
    },
    firstDelivery: async (eventId, type, receivedAt) => {
      const rows = await db.query(
        `insert into card_webhook_events (event_id, type, received_at) values ($1, $2, $3)
         on conflict (event_id) do nothing returning event_id`,
        [eventId, type, receivedAt],
      );
      return rows.length === 1;
    },
  };
}
