import {
  adtMessage,
  omlMessage,
  type Header,
  type OrderFacts,
  type PatientFacts,
  type Place,
  type StayFacts,
} from '../domain/interfaces/outbound-messages.ts';
import type { Hl7Event, Hl7EventCode, Hl7Outbox } from '../domain/notifications/hl7-events.ts';
import type { Gender } from '../domain/shared/actor.ts';
import type { Queryable } from './db.ts';
import { onlyRow } from './rows.ts';

/** MSH-10 of an outbox row: the same on every attempt. */
export const controlIdOf = (id: number) => `MED${id}`;

interface PlaceRow {
  ward: string | null;
  room: string | null;
  bed: string | null;
}
const placeOf = (r: PlaceRow): Place | null =>
  r.ward !== null && r.room !== null && r.bed !== null ? { ward: r.ward, room: r.room, bed: r.bed } : null;

async function patientFacts(db: Queryable, patientId: number): Promise<PatientFacts> {
  const row = onlyRow(
    await db.query<{ id: number; name: string; birth_date: string | null; gender: Gender | null; phone: string }>(
      `select p.id, u.name, p.birthdate::text as birth_date, p.gender, p.phone
       from patients p join users u on u.id = p.user_id where p.id = $1`,
      [patientId],
    ),
    'The patient',
  );
  return { id: row.id, name: row.name, birthDate: row.birth_date, gender: row.gender, phone: row.phone };
}

const BED_PLACE = (bed: string) => `
  (select d.name from beds b join rooms r on r.id = b.room_id join departments d on d.id = r.department_id where b.id = ${bed}) as ward,
  (select r.name from beds b join rooms r on r.id = b.room_id where b.id = ${bed}) as room,
  (select b.label from beds b where b.id = ${bed}) as bed`;

async function stayFacts(db: Queryable, admissionId: number): Promise<{ patientId: number; stay: StayFacts }> {
  const row = onlyRow(
    await db.query<
      PlaceRow & {
        patient_id: number;
        doctor_id: number;
        doctor: string;
        admitted_at: Date | null;
        discharged_at: Date | null;
        prior_bed_id: number | null;
      }
    >(
      `select a.patient_id, a.requested_by as doctor_id, du.name as doctor, a.admitted_at, a.discharged_at,
              (select s.bed_id from bed_stays s where s.admission_id = a.id and s.ended_by = 'transfer'
               order by s.ended_at desc, s.id desc limit 1) as prior_bed_id,
              ${BED_PLACE('a.bed_id')}
       from admissions a join doctors doc on doc.id = a.requested_by join users du on du.id = doc.user_id
       where a.id = $1`,
      [admissionId],
    ),
    'The admission',
  );
  const prior =
    row.prior_bed_id === null
      ? null
      : placeOf(onlyRow(await db.query<PlaceRow>(`select ${BED_PLACE('$1::int')}`, [row.prior_bed_id])));
  return {
    patientId: row.patient_id,
    stay: {
      admissionId,
      location: placeOf(row),
      priorLocation: prior,
      attending: { id: row.doctor_id, name: row.doctor },
      admittedAt: row.admitted_at,
      dischargedAt: row.discharged_at,
    },
  };
}

async function orderFacts(
  db: Queryable,
  orderId: number,
  control: 'NW' | 'CA',
): Promise<{ patientId: number; admissionId: number | null; order: OrderFacts }> {
  const row = onlyRow(
    await db.query<{
      order_number: string;
      patient_id: number;
      admission_id: number | null;
      priority: OrderFacts['priority'];
      ordered_at: Date;
      doctor_id: number;
      doctor: string;
      tests: { code: string; code_system: 'loinc' | 'local'; name: string }[];
    }>(
      `select o.order_number, o.patient_id, o.admission_id, o.priority, o.ordered_at, o.doctor_id, du.name as doctor,
              (select json_agg(json_build_object('code', t.code, 'code_system', t.code_system, 'name', t.name) order by i.id)
               from lab_order_items i join lab_tests t on t.id = i.test_id where i.order_id = o.id) as tests
       from lab_orders o join doctors doc on doc.id = o.doctor_id join users du on du.id = doc.user_id
       where o.id = $1`,
      [orderId],
    ),
    'The order',
  );
  return {
    patientId: row.patient_id,
    admissionId: row.admission_id,
    order: {
      orderNumber: row.order_number,
      control,
      priority: row.priority,
      orderedAt: row.ordered_at,
      doctor: { id: row.doctor_id, name: row.doctor },
      tests: (row.tests ?? []).map((t) => ({ code: t.code, codeSystem: t.code_system, name: t.name })),
    },
  };
}

/** The message of `event` for one receiver, as the data are in this transaction. */
async function messageFor(
  db: Queryable,
  event: Hl7Event,
): Promise<{ patientId: number; build: (h: Header) => string }> {
  if ('patientId' in event) {
    const patient = await patientFacts(db, event.patientId);
    const code = event.event;
    return { patientId: patient.id, build: (h) => adtMessage(h, code, patient, null) };
  }
  if (event.event === 'O21') {
    const { patientId, admissionId, order } = await orderFacts(db, event.orderId, event.control);
    const patient = await patientFacts(db, patientId);
    const stay = admissionId === null ? null : (await stayFacts(db, admissionId)).stay;
    return { patientId, build: (h) => omlMessage(h, patient, stay, order) };
  }
  const code = event.event;
  const { patientId, stay } = await stayFacts(db, event.admissionId);
  const patient = await patientFacts(db, patientId);
  return { patientId, build: (h) => adtMessage(h, code, patient, stay) };
}

/** The HL7 outbox as changes write to it: one row per receiver that takes the event, in the change's transaction. */
export function hl7Outbox(db: Queryable, facility: string): Hl7Outbox {
  return {
    queue: async (event, at) => {
      const receivers = await db.query<{ id: number; name: string; row_id: string | number }>(
        `select id, name, nextval(pg_get_serial_sequence('hl7_outbox', 'id')) as row_id
         from hl7_receivers where active and $1 = any(events) order by id`,
        [event.event satisfies Hl7EventCode],
      );
      if (receivers.length === 0) return;
      const { patientId, build } = await messageFor(db, event);
      const rows = receivers.map((r) => {
        const id = Number(r.row_id);
        return { id, receiver: r.id, message: build({ facility, receiver: r.name, controlId: controlIdOf(id), at }) };
      });
      await db.query(
        `insert into hl7_outbox (id, receiver_id, event, control_id, patient_id, message, send_after, created_at)
         select r.id, r.receiver, $1, 'MED' || r.id, $2, r.message, $3, $3
         from unnest($4::bigint[], $5::int[], $6::text[]) as r (id, receiver, message)`,
        [event.event, patientId, at, rows.map((r) => r.id), rows.map((r) => r.receiver), rows.map((r) => r.message)],
      );
    },
  };
}

/** A message the HL7 sender claimed, with where it goes. */
export interface ClaimedHl7 {
  id: number;
  attempts: number;
  controlId: string;
  message: string;
  receiver: { id: number; name: string; host: string; port: number };
}

type Outcome = { ackCode: string | null; ack: string | null };

/** The HL7 outbox as its sender works it: the lease design of the e-mail outbox (0013), one message per receiver at a time. */
export function hl7OutboxQueue(db: Queryable) {
  return {
    // A message is due only while no earlier one of its receiver is pending or sending: a receiver gets its
    // messages in the order of their changes, each after the one before was acknowledged or given up. A receiver
    // made inactive is sent nothing; its queue waits.
    claim: async (
      holder: string,
      now: Date,
      leaseUntil: Date,
      limit: number,
      sending: number[],
    ): Promise<ClaimedHl7[]> => {
      const rows = await db.query<{
        id: string | number;
        attempts: number;
        control_id: string;
        message: string;
        receiver_id: number;
        name: string;
        host: string;
        port: number;
      }>(
        `with claimed as (
           update hl7_outbox set status = 'sending', locked_by = $1, lease_until = $3, attempts = attempts + 1
           where id in (
             select o.id from hl7_outbox o
             where ((o.status = 'pending' and o.send_after <= $2) or (o.status = 'sending' and o.lease_until <= $2))
               and o.id <> all($5::bigint[])
               and exists (select 1 from hl7_receivers r where r.id = o.receiver_id and r.active)
               and not exists (select 1 from hl7_outbox e where e.receiver_id = o.receiver_id and e.id < o.id
                               and e.status in ('pending', 'sending'))
             order by o.id limit $4 for update skip locked)
           returning id, attempts, control_id, message, receiver_id)
         select c.*, r.name, r.host, r.port from claimed c join hl7_receivers r on r.id = c.receiver_id order by c.id`,
        [holder, now, leaseUntil, limit, sending],
      );
      return rows.map((r) => ({
        id: Number(r.id),
        attempts: r.attempts,
        controlId: r.control_id,
        message: r.message,
        receiver: { id: r.receiver_id, name: r.name, host: r.host, port: r.port },
      }));
    },
    renew: async (holder: string, ids: number[], leaseUntil: Date) => {
      if (ids.length === 0) return [];
      const rows = await db.query<{ id: string | number }>(
        `update hl7_outbox set lease_until = $3 where id = any($2::bigint[]) and locked_by = $1 and status = 'sending' returning id`,
        [holder, ids, leaseUntil],
      );
      return rows.map((r) => Number(r.id));
    },
    /** Acknowledged AA: sent, whoever holds it now (a delivery is a fact); false when it was already final. */
    sent: async (id: number, at: Date, outcome: Outcome) => {
      const rows = await db.query(
        `update hl7_outbox set status = 'sent', sent_at = $2, lease_until = null, locked_by = null, last_error = null,
           ack_code = $3, ack = $4
         where id = $1 and status in ('sending', 'pending') returning id`,
        [id, at, outcome.ackCode, outcome.ack],
      );
      return rows.length > 0;
    },
    retry: async (holder: string, id: number, at: Date, error: string, outcome: Outcome) => {
      const rows = await db.query(
        `update hl7_outbox set status = 'pending', send_after = $3, lease_until = null, locked_by = null, last_error = $4,
           ack_code = coalesce($5, ack_code), ack = coalesce($6, ack)
         where id = $2 and locked_by = $1 and status = 'sending' returning id`,
        [holder, id, at, error, outcome.ackCode, outcome.ack],
      );
      return rows.length > 0;
    },
    dead: async (holder: string, id: number, error: string, outcome: Outcome) => {
      const rows = await db.query(
        `update hl7_outbox set status = 'dead', lease_until = null, locked_by = null, last_error = $3,
           ack_code = coalesce($4, ack_code), ack = coalesce($5, ack)
         where id = $2 and locked_by = $1 and status = 'sending' returning id`,
        [holder, id, error, outcome.ackCode, outcome.ack],
      );
      return rows.length > 0;
    },
  };
}
