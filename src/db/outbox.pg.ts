import type { Attachment, MessageKind } from '../domain/notifications/message.ts';
import type {
  ActionLink,
  ClaimedMessage,
  LinkTokens,
  MessageLog,
  MessageStatus,
  Outbox,
  OutboxQueue,
} from '../domain/notifications/ports.ts';
import type { Queryable } from './db.ts';
import { pageWithTotal } from './list-page.ts';
import { valuesOf } from './rows.ts';

interface OutboxRow {
  id: string | number;
  kind: MessageKind;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  attachments: Attachment[];
  link_id: string | number | null;
  attempts: number;
  status: MessageStatus;
  send_after: Date;
  last_error: string | null;
  sent_at: Date | null;
  created_at: Date;
}

/** A row of the outbox list: a message without its HTML body and link. */
type OutboxListRow = Omit<OutboxRow, 'html_body' | 'link_id'>;

export function outboxStore(db: Queryable): Outbox {
  return {
    enqueue: async (...messages) => {
      const rows = messages.map((m) => [
        m.kind,
        m.dedupeKey,
        m.to,
        m.userId,
        m.appointmentId,
        m.subject,
        m.text,
        m.html,
        JSON.stringify(m.attachments),
        m.linkId ?? null,
        m.sendAfter,
        m.labAlertId ?? null,
      ]);
      if (rows.length === 0) return;
      await db.query(
        `insert into outbox (kind, dedupe_key, recipient, recipient_user_id, appointment_id, subject, text_body, html_body, attachments, link_id, send_after, lab_alert_id)
         values ${valuesOf(rows)}
         on conflict (dedupe_key) do nothing`,
        rows.flat(),
      );
    },
    withdraw: async (appointmentId, kinds) => {
      await db.query(
        `update outbox set status = 'cancelled', last_error = 'withdrawn: the appointment changed'
         where appointment_id = $1 and kind = any($2) and status = 'pending'`,
        [appointmentId, kinds],
      );
    },
  };
}

/**
 * Statements setting the token digest `hash` of the links of the messages in `messages` (a CTE with `kind` and
 * `link_id`), each in its consumer's table and only while the link can still work; a CTE `linked` lists the
 * links changed.
 */
const setLinkHash = (messages: string, hash: string, now: string) => `
  linked_action as (
    update action_tokens t set token_hash = ${hash} from ${messages} m
    where m.kind in ('reminder', 'email_verification') and t.id = m.link_id and t.used_at is null and t.expires_at > ${now}
    returning t.id),
  linked_reset as (
    update password_resets r set token_hash = ${hash} from ${messages} m
    where m.kind = 'password_reset' and r.id = m.link_id and r.used_at is null and r.expires_at > ${now}
    returning r.id),
  linked_offer as (
    update waitlist_offers w set token_hash = ${hash} from ${messages} m
    where m.kind = 'waitlist_offer' and w.id = m.link_id and w.status = 'open' and w.expires_at > ${now}
    returning w.id),
  linked as (select id from linked_action union all select id from linked_reset union all select id from linked_offer)`;

const toClaimedMessage = (r: OutboxRow): ClaimedMessage => ({
  id: Number(r.id),
  kind: r.kind,
  to: r.recipient,
  subject: r.subject,
  text: r.text_body,
  html: r.html_body,
  attachments: r.attachments,
  linkId: r.link_id === null ? null : Number(r.link_id),
  attempts: r.attempts,
});

export function outboxQueue(db: Queryable): OutboxQueue {
  return {
    claim: async (holder, now, leaseUntil, limit, sending = []) => {
      const rows = await db.query<OutboxRow>(
        `update outbox set status = 'sending', locked_by = $1, lease_until = $3, attempts = attempts + 1
         where id in (
           select id from outbox
           where ((status = 'pending' and send_after <= $2) or (status = 'sending' and lease_until <= $2)) and id <> all($5::bigint[])
           order by send_after, id limit $4 for update skip locked)
         returning *`,
        [holder, now, leaseUntil, limit, sending],
      );
      return rows.map(toClaimedMessage);
    },
    renew: async (holder, ids, leaseUntil) => {
      if (ids.length === 0) return [];
      const rows = await db.query<{ id: string | number }>(
        `update outbox set lease_until = $3 where id = any($2::bigint[]) and locked_by = $1 and status = 'sending' returning id`,
        [holder, ids, leaseUntil],
      );
      return rows.map((r) => Number(r.id));
    },
    reminderWanted: async (id) => {
      const rows = await db.query(
        `select 1 from outbox o
         join appointments a on a.id = o.appointment_id and a.status = 'scheduled'
         join patients p on p.id = a.patient_id and p.reminders
         join users u on u.id = p.user_id and u.email_verified_at is not null and lower(u.email) = lower(o.recipient)
         where o.id = $1`,
        [id],
      );
      return rows.length > 0;
    },
    escalationWanted: async (id) => {
      const rows = await db.query(
        `select 1 from outbox o join lab_critical_alerts a on a.id = o.lab_alert_id
         where o.id = $1 and not exists (select 1 from lab_critical_acknowledgements k where k.alert_id = a.id)`,
        [id],
      );
      return rows.length > 0;
    },
    // A delivery is a fact, not the lease holder's opinion (graphile-worker completes a job whoever holds it):
    // when our lease ran out mid-send and another worker took the message over, its copy is a duplicate already
    // under way, and recording ours keeps its failure from re-queueing or dead-lettering what was delivered.
    // Only a row already final (sent by the other, cancelled, …) is left as it is.
    sent: async (id, at) => {
      const rows = await db.query<{ held_by: string | null }>(
        `update outbox o set status = 'sent', sent_at = $2, lease_until = null, locked_by = null, last_error = null
         from (select id, locked_by from outbox where id = $1 for update) prior
         where o.id = prior.id and o.status in ('sending', 'pending')
         returning prior.locked_by as held_by`,
        [id, at],
      );
      return rows[0] && { heldBy: rows[0].held_by };
    },
    retry: async (holder, id, at, error) => {
      const rows = await db.query(
        `update outbox set status = 'pending', send_after = $3, lease_until = null, locked_by = null, last_error = $4
         where id = $2 and locked_by = $1 and status = 'sending' returning id`,
        [holder, id, at, error],
      );
      return rows.length > 0;
    },
    mintLink: async (holder, id, tokenHash, now) => {
      const [row] = await db.query<{ held: boolean; minted: boolean }>(
        `with held as (
           select kind, link_id from outbox where id = $2 and locked_by = $1 and status = 'sending' for update),
         ${setLinkHash('held', '$3::text', '$4::timestamptz')}
         select exists (select 1 from held) as held, exists (select 1 from linked) as minted`,
        [holder, id, tokenHash, now],
      );
      if (!row?.held) return 'lost';
      return row.minted ? 'minted' : 'spent';
    },
    close: async (holder, id, status, reason) => {
      const rows = await db.query(
        `with closed as (
           update outbox set status = $3, lease_until = null, locked_by = null, last_error = $4
           where id = $2 and locked_by = $1 and status = 'sending' returning id, kind, link_id),
         dead as (select kind, link_id from closed where $3 = 'dead'),
         ${setLinkHash('dead', 'null', "'-infinity'::timestamptz")}
         select id from closed`,
        [holder, id, status, reason],
      );
      return rows.length > 0;
    },
  };
}

/** Every message, newest first, for the admin's Messages screen. */
export function messageLog(db: Queryable): MessageLog {
  return {
    list: (filter, page) =>
      pageWithTotal(
        db,
        page,
        {
          columns:
            'id, kind, recipient, subject, status, attempts, send_after, last_error, sent_at, created_at, text_body, attachments',
          rowsOf: `from outbox where ($1::text is null or status = $1) and ($2::text is null or recipient ilike $2 or subject ilike $2)`,
          params: [filter.status ?? null, filter.q ? `%${filter.q.replace(/[\\%_]/g, '\\$&')}%` : null],
          orderBy: 'created_at desc, id desc',
        },
        (r: OutboxListRow) => ({
          id: Number(r.id),
          kind: r.kind,
          recipient: r.recipient,
          subject: r.subject,
          status: r.status,
          attempts: r.attempts,
          sendAfter: r.send_after,
          lastError: r.last_error,
          sentAt: r.sent_at,
          createdAt: r.created_at,
          text: r.text_body,
          attachments: r.attachments.map((a) => a.filename),
        }),
      ),
  };
}

/** One-time action links: prepared with their message, their token minted when it is sent and stored as its SHA-256 digest. */
export function linkTokenStore(db: Queryable, tokens: { digest(token: string): string }): LinkTokens {
  const find = async (kind: string, token: string, now: Date, use: boolean): Promise<ActionLink | undefined> => {
    const rows = await db.query<{ user_id: number | null; appointment_id: number | null; email: string | null }>(
      use
        ? `update action_tokens set used_at = $3 where token_hash = $1 and kind = $2 and used_at is null and expires_at > $3 returning user_id, appointment_id, email`
        : `select user_id, appointment_id, email from action_tokens where token_hash = $1 and kind = $2 and used_at is null and expires_at > $3`,
      [tokens.digest(token), kind, now],
    );
    const [row] = rows;
    return row && { userId: row.user_id, appointmentId: row.appointment_id, email: row.email };
  };
  return {
    prepare: async (link) => {
      const [row] = await db.query<{ id: string | number }>(
        'insert into action_tokens (kind, user_id, appointment_id, email, expires_at) values ($1, $2, $3, $4, $5) returning id',
        [link.kind, link.userId, link.appointmentId, link.email, link.expiresAt],
      );
      if (!row) throw new Error('insert returned no row');
      return Number(row.id);
    },
    use: (kind, token, now) => find(kind, token, now, true),
    peek: (kind, token, now) => find(kind, token, now, false),
  };
}
