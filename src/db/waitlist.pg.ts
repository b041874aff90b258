import type { WaitlistStore } from '../domain/scheduling/ports.ts';
import type { Hold, OfferStatus, WaitlistEntry, WaitlistOffer } from '../domain/scheduling/waitlist.ts';
import { containsPattern } from '../domain/shared/pagination.ts';
import type { Queryable } from './db.ts';
import { pageWithTotal } from './list-page.ts';
import { onlyRow } from './rows.ts';

const hhmm = (time: string) => time.slice(0, 5);

const OFFER_COLUMNS = `o.id, o.entry_id, o.schedule_id, o.date, o.start_time, o.end_time, o.expires_at, o.status,
  e.patient_id, pu.name as patient_name, pu.email as patient_email, o.doctor_id, du.name as doctor_name`;
/** Offers of `source` (the table, or rows an insert returns) as `o`, with their patient and doctor. */
const offersFrom = (source: string) => `${source} o
  join waitlist_entries e on e.id = o.entry_id
  join patients p on p.id = e.patient_id join users pu on pu.id = p.user_id
  join doctors d on d.id = o.doctor_id join users du on du.id = d.user_id`;

/** A row of OFFER_COLUMNS. */
interface OfferRow {
  id: number;
  entry_id: number;
  schedule_id: number;
  date: string;
  start_time: string;
  end_time: string;
  expires_at: Date;
  status: OfferStatus;
  patient_id: number;
  patient_name: string;
  patient_email: string;
  doctor_id: number;
  doctor_name: string;
}

const toOffer = (row: OfferRow): WaitlistOffer => ({
  id: row.id,
  entryId: row.entry_id,
  scheduleId: row.schedule_id,
  date: row.date,
  startTime: hhmm(row.start_time),
  endTime: hhmm(row.end_time),
  expiresAt: row.expires_at,
  status: row.status,
  patient: { id: row.patient_id, name: row.patient_name, email: row.patient_email },
  doctor: { id: row.doctor_id, name: row.doctor_name },
});

interface EntryRow {
  id: number;
  doctor_id: number;
  doctor_name: string;
  from_date: string;
  to_date: string;
  joined_at: Date;
  offer_date: string | null;
  offer_start: string | null;
  offer_end: string | null;
  offer_expires_at: Date | null;
}

const ENTRY_COLUMNS = `e.id, e.doctor_id, du.name as doctor_name, e.from_date, e.to_date, e.joined_at,
  o.date as offer_date, o.start_time as offer_start, o.end_time as offer_end, o.expires_at as offer_expires_at`;
const ENTRY_FROM = `waitlist_entries e
  join doctors d on d.id = e.doctor_id join users du on du.id = d.user_id
  left join waitlist_offers o on o.entry_id = e.id and o.status = 'open'`;

const toEntry = (r: EntryRow): WaitlistEntry => ({
  id: r.id,
  doctor: { id: r.doctor_id, name: r.doctor_name },
  fromDate: r.from_date,
  toDate: r.to_date,
  joinedAt: r.joined_at,
  offer:
    r.offer_date && r.offer_start && r.offer_end && r.offer_expires_at
      ? {
          date: r.offer_date,
          startTime: hhmm(r.offer_start),
          endTime: hhmm(r.offer_end),
          expiresAt: r.offer_expires_at,
        }
      : null,
});

/** Waitlist entries and offers; an offer link's token is minted when its e-mail is sent and kept only as its SHA-256 digest. */
/** The doctor's open offers from `from` to `to`: the slots they hold for the patient offered each. */
export const holdsSql = (doctor: string, from: string, to: string) =>
  `select o.id, o.entry_id, e.patient_id, o.date, o.start_time, o.end_time
   from waitlist_offers o join waitlist_entries e on e.id = o.entry_id
   where o.doctor_id = ${doctor} and o.date between ${from} and ${to} and o.status = 'open'`;
export interface HoldRow {
  id: number;
  entry_id: number;
  patient_id: number;
  date: string;
  start_time: string;
  end_time: string;
}
export const toHold = (r: HoldRow): Hold => ({
  offerId: r.id,
  entryId: r.entry_id,
  patientId: r.patient_id,
  date: r.date,
  startTime: hhmm(r.start_time),
  endTime: hhmm(r.end_time),
});

export function waitlistStore(db: Queryable, tokens: { digest(token: string): string }): WaitlistStore {
  const offers = async (where: string, params: unknown[], lock = '') =>
    (
      await db.query<OfferRow>(
        `select ${OFFER_COLUMNS} from ${offersFrom('waitlist_offers')} where ${where} ${lock}`,
        params,
      )
    ).map(toOffer);
  return {
    overlapping: async (patientId, doctorId, from, to) =>
      (
        await db.query(
          `select 1 from waitlist_entries
           where patient_id = $1 and doctor_id = $2 and status = 'waiting' and from_date <= $4 and to_date >= $3`,
          [patientId, doctorId, from, to],
        )
      ).length > 0,
    // The use case has locked the patient's row, so the patient it names exists.
    join: async (e) => {
      const rows = await db.query<{ id: number }>(
        `insert into waitlist_entries (patient_id, doctor_id, from_date, to_date, joined_at) values ($1, $2, $3, $4, $5) returning id`,
        [e.patientId, e.doctorId, e.fromDate, e.toDate, e.joinedAt],
      );
      return onlyRow(rows).id;
    },
    entriesOf: (patientId, today, req) =>
      pageWithTotal(
        db,
        req,
        {
          columns: ENTRY_COLUMNS,
          rowsOf: `from ${ENTRY_FROM} where e.patient_id = $1 and e.status = 'waiting' and e.to_date >= $2
                   and ($3::text is null or lower(du.name) like $3)`,
          countOf: `from waitlist_entries e join doctors d on d.id = e.doctor_id join users du on du.id = d.user_id
                    where e.patient_id = $1 and e.status = 'waiting' and e.to_date >= $2 and ($3::text is null or lower(du.name) like $3)`,
          orderBy: 'e.joined_at, e.id',
          params: [patientId, today, req.q ? containsPattern(req.q) : null],
        },
        toEntry,
      ),
    entry: async (id) => {
      const [row] = await db.query<EntryRow>(`select ${ENTRY_COLUMNS} from ${ENTRY_FROM} where e.id = $1`, [id]);
      return row && toEntry(row);
    },
    lockEntry: async (id) => {
      const [row] = await db.query<{ id: number; patient_id: number }>(
        `select id, patient_id from waitlist_entries where id = $1 and status = 'waiting' for update`,
        [id],
      );
      return row && { id: row.id, patientId: row.patient_id };
    },
    closeEntry: async (id, status, at) => {
      await db.query('update waitlist_entries set status = $2, closed_at = $3 where id = $1', [id, status, at]);
    },
    holds: async (doctorId, from, to) => {
      const rows = await db.query<HoldRow>(holdsSql('$1', '$2', '$3'), [doctorId, from, to]);
      return rows.map(toHold);
    },
    nextInLine: async (slot) => {
      const [row] = await db.query<{ id: number }>(
        `select e.id from waitlist_entries e
         where e.doctor_id = $1 and e.status = 'waiting' and $2::date between e.from_date and e.to_date
           -- An offer goes out by e-mail: a walk-in without an address is not held a slot nobody can tell them of.
           and exists (select 1 from patients p join users u on u.id = p.user_id where p.id = e.patient_id and u.email is not null)
           and not exists (select 1 from waitlist_offers o where o.entry_id = e.id
                           and (o.status = 'open' or (o.date = $2 and o.start_time = $3)))
           and not exists (select 1 from appointments a where a.patient_id = e.patient_id and a.date = $2
                           and a.status <> 'cancelled' and a.start_time < $4 and a.end_time > $3)
         order by e.joined_at, e.id
         limit 1`,
        [slot.doctorId, slot.date, slot.startTime, slot.endTime],
      );
      return row?.id;
    },
    offer: async (o) => {
      // A second instance offering the same slot meanwhile finds the open offer's index taken and offers nothing.
      const rows = await db.query<OfferRow>(
        `with inserted as (
           insert into waitlist_offers (entry_id, doctor_id, schedule_id, date, start_time, end_time, offered_at, expires_at)
           values ($1, $2, $3, $4, $5, $6, $7, $8)
           on conflict (doctor_id, date, start_time) where status = 'open' do nothing
           returning *)
         select ${OFFER_COLUMNS} from ${offersFrom('inserted')}`,
        [o.entryId, o.doctorId, o.scheduleId, o.date, o.startTime, o.endTime, o.offeredAt, o.expiresAt],
      );
      const [row] = rows;
      return row && { offer: toOffer(row) };
    },
    findOffer: async (token, { lock } = { lock: false }) => {
      const [offer] = await offers('o.token_hash = $1', [tokens.digest(token)], lock ? 'for update of o' : '');
      return offer;
    },
    lockOpenOfferOf: async (entryId) => {
      const [offer] = await offers(`o.entry_id = $1 and o.status = 'open'`, [entryId], 'for update of o');
      return offer;
    },
    closeOffer: async (id, status, at, appointmentId) => {
      await db.query('update waitlist_offers set status = $2, closed_at = $3, appointment_id = $4 where id = $1', [
        id,
        status,
        at,
        appointmentId ?? null,
      ]);
    },
    expireDue: async (now, limit) => {
      const rows = await db.query<OfferRow>(
        `with due as (
           select id from waitlist_offers where status = 'open' and expires_at <= $1
           order by expires_at, id limit $2 for update skip locked),
         expired as (
           update waitlist_offers w set status = 'expired', closed_at = $1 from due where w.id = due.id
           returning w.*)
         select ${OFFER_COLUMNS} from ${offersFrom('expired')} order by o.expires_at, o.id`,
        [now, limit],
      );
      return rows.map(toOffer);
    },
  };
}
