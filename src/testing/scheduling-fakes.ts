import type { AuditEntry, AuditLog } from '../domain/audit/audit.ts';
import type { Message } from '../domain/notifications/message.ts';
import type { Notifying } from '../domain/notifications/ports.ts';
import type { Clock } from '../domain/shared/clock.ts';
import { conflict, invalid } from '../domain/shared/errors.ts';
import {
  DEFAULT_BOOKING_LIMITS,
  type AppointmentStore,
  type PlacementStore,
  type ScheduleStore,
  type SchedulingSettings,
  type StatusCounts,
  type TimeOffStore,
  type WaitlistStore,
} from '../domain/scheduling/ports.ts';
import {
  APPOINTMENT_STATUSES,
  SLOT_TAKEN,
  overlaps,
  type Appointment,
  type AppointmentStatus,
  type WeeklySlot,
} from '../domain/scheduling/scheduling.ts';
import { covers, type TimeOff } from '../domain/scheduling/time-off.ts';
import type { OfferStatus, WaitlistOffer } from '../domain/scheduling/waitlist.ts';
import { defaultHours, slotsOf, type HoursRange, type SavedRange } from '../domain/scheduling/working-hours.ts';

/** A clock a test moves by hand, e.g. past an offer's hold. */
export function movableClock(iso: string): Clock & { set(iso: string): void } {
  let now = new Date(iso);
  return {
    now: () => new Date(now),
    set: (next) => {
      now = new Date(next);
    },
  };
}

interface Doctor {
  id: number;
  name: string;
  email: string;
  active: boolean;
  departmentId: number | null;
}
interface Patient {
  id: number;
  name: string;
  email: string | null;
}
interface StoredAppointment {
  id: number;
  patientId: number;
  doctorId: number;
  scheduleId: number;
  date: string;
  startTime: string;
  endTime: string;
  status: AppointmentStatus;
  sequence: number;
}
interface Entry {
  id: number;
  patientId: number;
  doctorId: number;
  fromDate: string;
  toDate: string;
  joinedAt: Date;
  status: 'waiting' | 'booked' | 'left';
}
interface Offer {
  id: number;
  entryId: number;
  doctorId: number;
  scheduleId: number;
  date: string;
  startTime: string;
  endTime: string;
  expiresAt: Date;
  status: OfferStatus;
  appointmentId: number | null;
}

/** Everything the fakes keep; a transaction that throws puts it back as it was. */
interface State {
  departments: { id: number; name: string }[];
  rooms: { id: number; name: string; departmentId: number | null }[];
  doctors: Doctor[];
  patients: Patient[];
  slots: WeeklySlot[];
  hours: (HoursRange & { doctorId: number })[];
  timeOff: TimeOff[];
  appointments: StoredAppointment[];
  entries: Entry[];
  offers: Offer[];
  audit: AuditEntry[];
  /** Messages waiting in the outbox; a withdrawn one moves to `withdrawn`. */
  outbox: Message[];
  withdrawn: Message[];
  links: { id: number; kind: string; appointmentId: number | null; expiresAt: Date }[];
}

const emptyState = (): State => ({
  departments: [],
  rooms: [],
  doctors: [],
  patients: [],
  slots: [],
  hours: [],
  timeOff: [],
  appointments: [],
  entries: [],
  offers: [],
  audit: [],
  outbox: [],
  withdrawn: [],
  links: [],
});

const nextId = (rows: { id: number }[]) => rows.reduce((max, row) => Math.max(max, row.id), 0) + 1;
const slotTaken = () => conflict(SLOT_TAKEN.code, SLOT_TAKEN.message, { [SLOT_TAKEN.field]: [SLOT_TAKEN.message] });

/**
 * In-memory scheduling and waitlist ports over one clinic, with the schema's rules that the use cases rely on
 * (one booking per slot, one open offer per slot). Transactions are all or nothing; refusals are recorded after.
 */
export function fakeScheduling(clock: Clock, settings: Partial<SchedulingSettings> = {}) {
  let state = emptyState();

  const doctorOf = (id: number) => state.doctors.find((d) => d.id === id);
  const patientOf = (id: number) => state.patients.find((p) => p.id === id);
  const named = <T extends { id: number; name: string }>(row: T | undefined) =>
    row ? { id: row.id, name: row.name } : null;

  function toAppointment(a: StoredAppointment): Appointment {
    const doctor = doctorOf(a.doctorId);
    const patient = patientOf(a.patientId);
    const slot = state.slots.find((s) => s.id === a.scheduleId);
    if (!doctor || !patient) throw new Error(`appointment ${a.id} names an unknown doctor or patient`);
    return {
      id: a.id,
      date: a.date,
      startTime: a.startTime,
      endTime: a.endTime,
      status: a.status,
      patient: { id: patient.id, name: patient.name, email: patient.email },
      patientBirthDate: null,
      doctor: { id: doctor.id, name: doctor.name, email: doctor.email },
      department: named(state.departments.find((d) => d.id === doctor.departmentId)),
      room: slot?.room ?? null,
      sequence: a.sequence,
    };
  }

  function toOffer(o: Offer): WaitlistOffer {
    const entry = state.entries.find((e) => e.id === o.entryId);
    const patient = entry && patientOf(entry.patientId);
    const doctor = doctorOf(o.doctorId);
    if (!patient?.email || !doctor) throw new Error(`offer ${o.id} names an unknown patient or doctor`);
    return {
      id: o.id,
      entryId: o.entryId,
      scheduleId: o.scheduleId,
      date: o.date,
      startTime: o.startTime,
      endTime: o.endTime,
      expiresAt: o.expiresAt,
      status: o.status,
      patient: { id: patient.id, name: patient.name, email: patient.email },
      doctor: { id: doctor.id, name: doctor.name },
    };
  }

  /** The slot index: one appointment that is not cancelled per doctor, date and start. */
  const refuseTaken = (doctorId: number, date: string, startTime: string, except?: number) => {
    if (
      state.appointments.some(
        (a) =>
          a.id !== except &&
          a.doctorId === doctorId &&
          a.date === date &&
          a.startTime === startTime &&
          a.status !== 'cancelled',
      )
    )
      throw slotTaken();
  };
  const live = (a: StoredAppointment) => a.status !== 'cancelled';

  const schedules: ScheduleStore = {
    isActiveDoctor: async (id) => doctorOf(id)?.active === true,
    lockDoctor: async (id) => doctorOf(id)?.active === true,
    currentSlots: async (doctorId, weekday) =>
      state.slots
        .filter((s) => s.doctorId === doctorId && !s.retired && (weekday === undefined || s.weekday === weekday))
        .sort((a, b) => a.weekday - b.weekday || a.startTime.localeCompare(b.startTime)),
    departmentDoctors: async (departmentId) =>
      state.departments.some((d) => d.id === departmentId)
        ? state.doctors
            .filter((d) => d.departmentId === departmentId && d.active)
            .map((d) => ({ id: d.id, name: d.name }))
            .sort((a, b) => a.name.localeCompare(b.name))
        : undefined,
    find: async (id) => state.slots.find((s) => s.id === id),
    hours: async (doctorId) =>
      state.hours
        .filter((h) => h.doctorId === doctorId)
        .sort((a, b) => a.weekday - b.weekday || a.startTime.localeCompare(b.startTime))
        .map(
          (h): SavedRange => ({
            weekday: h.weekday,
            startTime: h.startTime,
            endTime: h.endTime,
            slotMinutes: h.slotMinutes,
            room: named(state.rooms.find((r) => r.id === h.roomId)),
          }),
        ),
    replace: async (doctorId, hours) => {
      if (hours.some((p) => p.roomId !== null && !state.rooms.some((r) => r.id === p.roomId)))
        throw invalid({ room_id: ['does not exist'] });
      state.hours = [...state.hours.filter((h) => h.doctorId !== doctorId), ...hours.map((h) => ({ ...h, doctorId }))];
      const plan = slotsOf(hours);
      const same = (s: WeeklySlot, p: (typeof plan)[number]) =>
        s.weekday === p.weekday &&
        s.startTime === p.startTime &&
        s.endTime === p.endTime &&
        (s.room?.id ?? null) === p.roomId;
      const current = state.slots.filter((s) => s.doctorId === doctorId && !s.retired);
      for (const s of current) if (!plan.some((p) => same(s, p))) s.retired = true;
      for (const p of plan)
        if (!current.some((s) => same(s, p))) addSlot(doctorId, p.weekday, p.startTime, p.endTime, p.roomId);
    },
    createDefaultPattern: async (doctorId, departmentId) => {
      const hours = defaultHours(state.rooms.find((r) => r.departmentId === departmentId)?.id ?? null);
      state.hours.push(...hours.map((h) => ({ ...h, doctorId })));
      for (const p of slotsOf(hours)) addSlot(doctorId, p.weekday, p.startTime, p.endTime, p.roomId);
    },
  };

  const appointments: AppointmentStore = {
    lockPatient: async (id) => {
      const patient = patientOf(id);
      return patient && { hasEmail: patient.email !== null };
    },
    bookedTimes: async (owner, date, except) =>
      state.appointments
        .filter(
          (a) =>
            live(a) &&
            a.date === date &&
            a.id !== except &&
            ('doctorId' in owner ? a.doctorId === owner.doctorId : a.patientId === owner.patientId),
        )
        .map((a) => ({ startTime: a.startTime, endTime: a.endTime })),
    doctorBookings: async (doctorId, from, to) =>
      state.appointments
        .filter((a) => live(a) && a.doctorId === doctorId && a.date >= from && a.date <= to)
        .map((a) => ({ date: a.date, startTime: a.startTime, endTime: a.endTime })),
    patientBookings: async (patientId, doctorId, date, today, except) => {
      const upcoming = state.appointments.filter(
        (a) => a.patientId === patientId && a.status === 'scheduled' && a.date >= today && a.id !== except,
      );
      return {
        withDoctorThatDay: upcoming.filter((a) => a.doctorId === doctorId && a.date === date).length,
        upcoming: upcoming.length,
      };
    },
    insert: async (a) => {
      const slot = state.slots.find((s) => s.id === a.scheduleId);
      if (!slot) throw new Error(`no slot ${a.scheduleId}`);
      refuseTaken(slot.doctorId, a.date, slot.startTime);
      const row: StoredAppointment = {
        id: nextId(state.appointments),
        patientId: a.patientId,
        doctorId: slot.doctorId,
        scheduleId: slot.id,
        date: a.date,
        startTime: slot.startTime,
        endTime: slot.endTime,
        status: 'scheduled',
        sequence: 0,
      };
      state.appointments.push(row);
      return toAppointment(row);
    },
    find: async (id) => {
      const row = state.appointments.find((a) => a.id === id);
      return row && toAppointment(row);
    },
    lock: async (id) => {
      const row = state.appointments.find((a) => a.id === id);
      return row && toAppointment(row);
    },
    // As the schema's trigger (migration 0018): a cancellation or a move is the event's next version.
    setStatus: async (id, status) => {
      const row = state.appointments.find((a) => a.id === id);
      if (!row) throw new Error(`no appointment ${id}`);
      if (status === 'cancelled' && row.status !== 'cancelled') row.sequence += 1;
      row.status = status;
      return row.sequence;
    },
    move: async (id, to) => {
      const row = state.appointments.find((a) => a.id === id);
      const slot = state.slots.find((s) => s.id === to.scheduleId);
      if (!row || !slot) throw new Error(`no appointment ${id} or slot ${to.scheduleId}`);
      refuseTaken(slot.doctorId, to.date, slot.startTime, id);
      Object.assign(row, {
        doctorId: slot.doctorId,
        scheduleId: slot.id,
        date: to.date,
        startTime: slot.startTime,
        endTime: slot.endTime,
        sequence: row.sequence + 1,
      });
      return toAppointment(row);
    },
    list: async (filter, req, today) => {
      const rows = state.appointments
        .filter(
          (a) =>
            (filter.patientId === undefined || a.patientId === filter.patientId) &&
            (filter.doctorId === undefined || a.doctorId === filter.doctorId) &&
            (!filter.status || a.status === filter.status) &&
            (!filter.date || a.date === filter.date) &&
            (!filter.hideCancelled || Boolean(filter.status) || a.status !== 'cancelled'),
        )
        .map(toAppointment)
        .filter(
          (a) =>
            !req.q ||
            [a.patient.name, a.patient.email, a.doctor.name, a.doctor.email, a.department?.name, a.room?.name].some(
              (s) => s?.toLowerCase().includes(req.q?.toLowerCase() ?? ''),
            ),
        );
      const upcoming = rows
        .filter((a) => a.date >= today)
        .sort((a, b) => a.date.localeCompare(b.date) || a.startTime.localeCompare(b.startTime));
      const past = rows
        .filter((a) => a.date < today)
        .sort((a, b) => b.date.localeCompare(a.date) || b.startTime.localeCompare(a.startTime));
      const items = [...upcoming, ...past].slice((req.page - 1) * req.perPage, req.page * req.perPage);
      return { items, total: rows.length, totalIsLowerBound: false, page: req.page, perPage: req.perPage };
    },
    dayCounts: async (date, doctorId) => {
      const counts = Object.fromEntries(APPOINTMENT_STATUSES.map((status) => [status, 0])) as StatusCounts;
      for (const a of state.appointments)
        if (a.date === date && (doctorId === undefined || a.doctorId === doctorId)) counts[a.status] += 1;
      return counts;
    },
    agenda: async (doctorId, from, to) =>
      state.appointments
        .filter((a) => live(a) && a.doctorId === doctorId && a.date >= from && a.date <= to)
        .sort((a, b) => a.date.localeCompare(b.date) || a.startTime.localeCompare(b.startTime) || a.id - b.id)
        .map(toAppointment),
  };

  const coversVisit = (t: TimeOff, a: StoredAppointment) =>
    (t.doctor === null || t.doctor.id === a.doctorId) && covers(t, a.date, a);
  const timeOff: TimeOffStore = {
    covering: async (doctorId, from, to) =>
      state.timeOff
        .filter((t) => (t.doctor === null || t.doctor.id === doctorId) && t.startsOn <= to && t.endsOn >= from)
        .sort((a, b) => a.startsOn.localeCompare(b.startsOn) || a.id - b.id),
    add: async ({ doctorId, ...span }) => {
      const row: TimeOff = {
        ...span,
        id: nextId(state.timeOff),
        doctor: doctorId === null ? null : named(doctorOf(doctorId)),
      };
      state.timeOff.push(row);
      return row;
    },
    list: async (filter, req) => {
      const items = state.timeOff.filter(
        (t) =>
          t.endsOn >= filter.from &&
          (filter.doctorId === undefined || t.doctor === null || t.doctor.id === filter.doctorId),
      );
      return { items, total: items.length, totalIsLowerBound: false, page: req.page, perPage: req.perPage };
    },
    remove: async (id) => {
      const gone = state.timeOff.find((t) => t.id === id);
      state.timeOff = state.timeOff.filter((t) => t.id !== id);
      return gone;
    },
    visitsToMove: async (filter, req) => {
      const items = state.appointments
        .filter((a) => a.status === 'scheduled' && a.date >= filter.today)
        .sort((a, b) => a.date.localeCompare(b.date) || a.startTime.localeCompare(b.startTime) || a.id - b.id)
        .flatMap((a) => {
          const off = state.timeOff.find(
            (t) => (filter.timeOffId === undefined || t.id === filter.timeOffId) && coversVisit(t, a),
          );
          return off ? [{ appointment: toAppointment(a), timeOff: off }] : [];
        });
      return { items, total: items.length, totalIsLowerBound: false, page: req.page, perPage: req.perPage };
    },
  };

  const openOfferOf = (entryId: number) => state.offers.find((o) => o.entryId === entryId && o.status === 'open');
  const waitlist: WaitlistStore = {
    overlapping: async (patientId, doctorId, from, to) =>
      state.entries.some(
        (e) =>
          e.patientId === patientId &&
          e.doctorId === doctorId &&
          e.status === 'waiting' &&
          e.fromDate <= to &&
          e.toDate >= from,
      ),
    join: async (e) => {
      const id = nextId(state.entries);
      state.entries.push({ ...e, id, status: 'waiting' });
      return id;
    },
    entriesOf: async (patientId, today, req) => {
      const rows = state.entries.filter(
        (e) => e.patientId === patientId && e.status === 'waiting' && e.toDate >= today,
      );
      const items = await Promise.all(rows.map((e) => waitlist.entry(e.id)));
      const found = items.flatMap((e) =>
        e && (!req.q || e.doctor.name.toLowerCase().includes(req.q.toLowerCase())) ? [e] : [],
      );
      return { items: found, total: found.length, totalIsLowerBound: false, page: req.page, perPage: req.perPage };
    },
    entry: async (id) => {
      const e = state.entries.find((x) => x.id === id);
      const doctor = e && doctorOf(e.doctorId);
      if (!e || !doctor) return undefined;
      const o = openOfferOf(e.id);
      return {
        id: e.id,
        doctor: { id: doctor.id, name: doctor.name },
        fromDate: e.fromDate,
        toDate: e.toDate,
        joinedAt: e.joinedAt,
        offer: o ? { date: o.date, startTime: o.startTime, endTime: o.endTime, expiresAt: o.expiresAt } : null,
      };
    },
    lockEntry: async (id) => {
      const e = state.entries.find((x) => x.id === id && x.status === 'waiting');
      return e && { id: e.id, patientId: e.patientId };
    },
    closeEntry: async (id, status) => {
      const e = state.entries.find((x) => x.id === id);
      if (e) e.status = status;
    },
    holds: async (doctorId, from, to) =>
      state.offers
        .filter((o) => o.doctorId === doctorId && o.date >= from && o.date <= to && o.status === 'open')
        .map((o) => ({
          offerId: o.id,
          entryId: o.entryId,
          patientId: state.entries.find((e) => e.id === o.entryId)?.patientId ?? 0,
          date: o.date,
          startTime: o.startTime,
          endTime: o.endTime,
        })),
    nextInLine: async (slot) =>
      state.entries
        .filter(
          (e) =>
            e.doctorId === slot.doctorId && e.status === 'waiting' && e.fromDate <= slot.date && slot.date <= e.toDate,
        )
        .filter((e) => patientOf(e.patientId)?.email != null)
        .filter(
          (e) =>
            !state.offers.some(
              (o) =>
                o.entryId === e.id && (o.status === 'open' || (o.date === slot.date && o.startTime === slot.startTime)),
            ),
        )
        .filter(
          (e) =>
            !state.appointments.some(
              (a) => a.patientId === e.patientId && a.date === slot.date && live(a) && overlaps(a, slot),
            ),
        )
        .sort((a, b) => a.joinedAt.getTime() - b.joinedAt.getTime() || a.id - b.id)[0]?.id,
    offer: async (o) => {
      if (
        state.offers.some(
          (x) => x.doctorId === o.doctorId && x.date === o.date && x.startTime === o.startTime && x.status === 'open',
        )
      )
        return undefined;
      const row: Offer = {
        id: nextId(state.offers),
        entryId: o.entryId,
        doctorId: o.doctorId,
        scheduleId: o.scheduleId,
        date: o.date,
        startTime: o.startTime,
        endTime: o.endTime,
        expiresAt: o.expiresAt,
        status: 'open',
        appointmentId: null,
      };
      state.offers.push(row);
      return { offer: toOffer(row) };
    },
    findOffer: async (token) => {
      const row = state.offers.find((o) => offerToken(o.id) === token);
      return row && toOffer(row);
    },
    lockOpenOfferOf: async (entryId) => {
      const row = openOfferOf(entryId);
      return row && toOffer(row);
    },
    closeOffer: async (id, status, _at, appointmentId) => {
      const row = state.offers.find((o) => o.id === id);
      if (row) Object.assign(row, { status, appointmentId: appointmentId ?? null });
    },
    expireDue: async (now, limit) => {
      const due = state.offers
        .filter((o) => o.status === 'open' && o.expiresAt <= now)
        .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime() || a.id - b.id)
        .slice(0, limit);
      for (const o of due) o.status = 'expired';
      return due.map(toOffer);
    },
  };

  const audit: AuditLog = { record: async (...entry) => void state.audit.push(...entry) };
  const notifying: Notifying = {
    outbox: {
      enqueue: async (...messages) => {
        for (const m of messages) if (!state.outbox.some((x) => x.dedupeKey === m.dedupeKey)) state.outbox.push(m);
      },
      withdraw: async (appointmentId, kinds) => {
        const gone = state.outbox.filter((m) => m.appointmentId === appointmentId && kinds.includes(m.kind));
        state.withdrawn.push(...gone);
        state.outbox = state.outbox.filter((m) => !gone.includes(m));
      },
    },
    links: {
      prepare: async (link) => {
        const id = nextId(state.links);
        state.links.push({ id, kind: link.kind, appointmentId: link.appointmentId, expiresAt: link.expiresAt });
        return id;
      },
      use: async () => undefined,
      peek: async () => undefined,
    },
  };

  const stores = {
    schedules,
    timeOff,
    appointments,
    waitlist,
    placements: placementsOf(schedules, timeOff, appointments, waitlist),
    audit,
    ...notifying,
  };
  const deps = {
    ...stores,
    clock,
    timeZone: 'Europe/Berlin',
    waitlistHoldMinutes: 30,
    bookingLimits: DEFAULT_BOOKING_LIMITS,
    clinic: { name: 'Lakeside Clinic', timeZone: 'Europe/Berlin', locale: 'en-US', mailFrom: 'desk@lakeside.test' },
    reminderHours: 24,
    ...settings,
    transaction: async <T>(fn: (tx: typeof stores) => Promise<T>): Promise<T> => {
      const before = structuredClone(state);
      try {
        return await fn(stores);
      } catch (error) {
        state = before;
        throw error;
      }
    },
  };

  function addSlot(
    doctorId: number,
    weekday: number,
    startTime: string,
    endTime: string,
    roomId: number | null = null,
  ): WeeklySlot {
    const room = state.rooms.find((r) => r.id === roomId);
    const slot: WeeklySlot = {
      id: nextId(state.slots),
      doctorId,
      weekday,
      startTime,
      endTime,
      room: room ? { id: room.id, name: room.name } : null,
      retired: false,
    };
    state.slots.push(slot);
    return slot;
  }

  return {
    /** Both scheduling's and the waitlist's deps: one clinic behind both, as in the app. */
    deps,
    /** A doctor working `slots` ([weekday, start, end]) each week. */
    addDoctor(name: string, slots: [number, string, string][]) {
      const doctor: Doctor = {
        id: nextId(state.doctors),
        name,
        email: `${name.toLowerCase().replace(/\W+/g, '.')}@lakeside.test`,
        active: true,
        departmentId: null,
      };
      state.doctors.push(doctor);
      return { ...doctor, slots: slots.map(([weekday, start, end]) => addSlot(doctor.id, weekday, start, end)) };
    },
    /** A patient with an e-mail, or a walk-in without one (`email: null`). */
    addPatient(name: string, email: string | null = `${name.toLowerCase().replace(/\W+/g, '.')}@example.test`) {
      const patient: Patient = { id: nextId(state.patients), name, email };
      state.patients.push(patient);
      return patient;
    },
    audit: () => state.audit,
    /** The messages still due to go out. */
    outbox: () => state.outbox,
    withdrawn: () => state.withdrawn,
    /** What the mail worker hands the patient when it sends an offer's e-mail. */
    offerToken,
  };
}

function offerToken(offerId: number): string {
  return `offer-token-${offerId}`;
}

/** A booking's lock and read, each answered part by part by the stores each part comes from. */
export function placementsOf(
  schedules: Pick<ScheduleStore, 'find' | 'lockDoctor'>,
  timeOff: Pick<TimeOffStore, 'covering'>,
  appointments: Pick<AppointmentStore, 'lockPatient' | 'bookedTimes' | 'patientBookings'>,
  waitlist: Pick<WaitlistStore, 'holds'>,
): PlacementStore {
  return {
    lock: async (doctorId, patientId) => {
      const doctor = await schedules.lockDoctor(doctorId);
      return { doctor, patient: doctor ? await appointments.lockPatient(patientId) : undefined };
    },
    facts: async (ask) => ({
      slot: await schedules.find(ask.scheduleId),
      timeOff: await timeOff.covering(ask.doctorId, ask.date, ask.date),
      doctorBooked: await appointments.bookedTimes({ doctorId: ask.doctorId }, ask.date, ask.except),
      holds: await waitlist.holds(ask.doctorId, ask.date, ask.date),
      patientBooked: await appointments.bookedTimes({ patientId: ask.patientId }, ask.date, ask.except),
      patientBookings: await appointments.patientBookings(ask.patientId, ask.doctorId, ask.date, ask.today, ask.except),
    }),
  };
}
