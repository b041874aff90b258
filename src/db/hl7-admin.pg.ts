import type { InterfacesStore, OutboundMessage, Receiver, StoredReceived } from '../domain/interfaces/ports.ts';
import type { Hl7EventCode } from '../domain/notifications/hl7-events.ts';
import type { Queryable } from './db.ts';
import { pageWithTotal } from './list-page.ts';
import { onlyRow } from './rows.ts';
import { onUnique } from './sql-errors.ts';

const NAME_TAKEN = {
  hl7_receivers_name_key: { code: 'name_taken', field: 'name', message: 'Another receiver has this name' },
};

interface ReceiverRow {
  id: number;
  name: string;
  host: string;
  port: number;
  events: Hl7EventCode[];
  active: boolean;
  created_at: Date;
  queued: number;
  dead: number;
  last_sent_at: Date | null;
}

const RECEIVER_COLUMNS = `r.id, r.name, r.host, r.port, r.events, r.active, r.created_at,
  (select count(*)::int from hl7_outbox o where o.receiver_id = r.id and o.status in ('pending', 'sending')) as queued,
  (select count(*)::int from hl7_outbox o where o.receiver_id = r.id and o.status = 'dead') as dead,
  (select max(o.sent_at) from hl7_outbox o where o.receiver_id = r.id and o.status = 'sent') as last_sent_at`;

const toReceiver = (r: ReceiverRow): Receiver => ({
  id: r.id,
  name: r.name,
  host: r.host,
  port: r.port,
  events: r.events,
  active: r.active,
  createdAt: r.created_at,
  queued: r.queued,
  dead: r.dead,
  lastSentAt: r.last_sent_at,
});

interface OutboundRow {
  id: string | number;
  receiver_id: number;
  receiver: string;
  event: OutboundMessage['event'];
  control_id: string;
  patient_id: number | null;
  status: OutboundMessage['status'];
  attempts: number;
  ack_code: OutboundMessage['ackCode'];
  ack: string | null;
  last_error: string | null;
  message: string;
  created_at: Date;
  sent_at: Date | null;
}

const OUTBOUND_COLUMNS = `o.id, o.receiver_id, r.name as receiver, o.event, o.control_id, o.patient_id, o.status,
  o.attempts, o.ack_code, o.ack, o.last_error, o.message, o.created_at, o.sent_at`;

const toOutbound = (r: OutboundRow): OutboundMessage => ({
  id: Number(r.id),
  receiverId: r.receiver_id,
  receiver: r.receiver,
  event: r.event,
  controlId: r.control_id,
  patientId: r.patient_id,
  status: r.status,
  attempts: r.attempts,
  ackCode: r.ack_code,
  ack: r.ack,
  lastError: r.last_error,
  message: r.message,
  createdAt: r.created_at,
  sentAt: r.sent_at,
});

interface ReceivedRow {
  id: string | number;
  source: string;
  control_id: string | null;
  message_type: string;
  message: string;
  status: StoredReceived['status'];
  ack_code: StoredReceived['ackCode'];
  ack: string;
  error: string | null;
  received_at: Date;
}

const toReceived = (r: ReceivedRow): StoredReceived => ({
  id: Number(r.id),
  source: r.source,
  controlId: r.control_id,
  messageType: r.message_type,
  message: r.message,
  status: r.status,
  ackCode: r.ack_code,
  ack: r.ack,
  error: r.error,
  receivedAt: r.received_at,
});

/** The receivers and the messages of both directions (migration 0050), as the admin's *Interfaces* shows them. */
export function interfacesStore(db: Queryable): InterfacesStore {
  return {
    receivers: (page) =>
      pageWithTotal(
        db,
        page,
        { columns: RECEIVER_COLUMNS, rowsOf: 'from hl7_receivers r', orderBy: 'r.name, r.id', params: [] },
        toReceiver,
      ),
    receiver: async (id) => {
      const [row] = await db.query<ReceiverRow>(`select ${RECEIVER_COLUMNS} from hl7_receivers r where r.id = $1`, [
        id,
      ]);
      return row && toReceiver(row);
    },
    createReceiver: async (f) =>
      onlyRow(
        await onUnique(
          () =>
            db.query<{ id: number }>(
              `insert into hl7_receivers (name, host, port, events) values ($1, $2, $3, $4) returning id`,
              [f.name, f.host, f.port, f.events],
            ),
          NAME_TAKEN,
        ),
      ).id,
    lockReceiver: async (id) =>
      (await db.query(`select id from hl7_receivers where id = $1 for update`, [id])).length > 0,
    updateReceiver: async (id, f) => {
      await onUnique(
        () =>
          db.query(`update hl7_receivers set name = $2, host = $3, port = $4, events = $5, active = $6 where id = $1`, [
            id,
            f.name,
            f.host,
            f.port,
            f.events,
            f.active,
          ]),
        NAME_TAKEN,
      );
    },
    outbound: (filter, page) => {
      const params: unknown[] = [];
      const where = [
        filter.receiverId === undefined ? '' : `o.receiver_id = $${params.push(filter.receiverId)}`,
        filter.status === undefined ? '' : `o.status = $${params.push(filter.status)}`,
      ].filter(Boolean);
      return pageWithTotal(
        db,
        page,
        {
          columns: OUTBOUND_COLUMNS,
          rowsOf: `from hl7_outbox o join hl7_receivers r on r.id = o.receiver_id ${where.length ? `where ${where.join(' and ')}` : ''}`,
          orderBy: 'o.created_at desc, o.id desc',
          params,
        },
        toOutbound,
      );
    },
    lockOutbound: async (id) => {
      if (!(await db.query(`select id from hl7_outbox where id = $1 for update`, [id])).length) return undefined;
      const [row] = await db.query<OutboundRow>(
        `select ${OUTBOUND_COLUMNS} from hl7_outbox o join hl7_receivers r on r.id = o.receiver_id where o.id = $1`,
        [id],
      );
      return row && toOutbound(row);
    },
    requeue: async (id, at) => {
      await db.query(
        `update hl7_outbox set status = 'pending', attempts = 0, send_after = $2, lease_until = null, locked_by = null
         where id = $1 and status = 'dead'`,
        [id, at],
      );
    },
    received: (filter, page) => {
      const params: unknown[] = [];
      const where = filter.status === undefined ? '' : `where status = $${params.push(filter.status)}`;
      return pageWithTotal(
        db,
        page,
        {
          columns: 'id, source, control_id, message_type, message, status, ack_code, ack, error, received_at',
          rowsOf: `from hl7_received ${where}`,
          orderBy: 'received_at desc, id desc',
          params,
        },
        toReceived,
      );
    },
  };
}
