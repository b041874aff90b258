import { requireAdmin, requireDesk, type Actor } from '../shared/actor.ts';
import { conflict, ensure, notFound } from '../shared/errors.ts';
import { pathId, type RawId } from '../shared/validate.ts';
import { centsToDecimal, parseCents } from '../shared/money.ts';
import { readInput } from '../shared/read-fields.ts';
import { BED_STATES, bedState, seesClinical, type Bed, type BedState } from './inpatient.ts';
import { bedJson, roomClassJson } from './inpatient-answers.ts';
import {
  BedLabelRequest,
  BlockBedRequest,
  RoomClassRequest,
  WardQuery,
  type BedBoardJson,
  type BedJson,
} from './inpatient-shapes.ts';
import type { BedNews2, BoardRoom, InpatientDeps } from './ports.ts';
import { lockInService } from './bed-lock.ts';

/** An admin adds a bed to a room; the room's department is its ward. */
export async function createBed(deps: InpatientDeps, roomId: RawId, body: unknown, actor: Actor) {
  requireAdmin(actor);
  const room = pathId(roomId, 'Room');
  const { label } = readInput(BedLabelRequest, body);
  return deps.transaction(async (tx) => {
    const bed = ensure(await tx.beds.create(room, label, tx.clock.now()), () => notFound('Room'));
    await tx.audit.record({
      actor,
      action: 'create',
      entity: 'bed',
      entityId: bed.id,
      details: { room_id: room, label },
    });
    return bedJson(bed, actor);
  });
}

export async function renameBed(deps: InpatientDeps, bedId: RawId, body: unknown, actor: Actor) {
  requireAdmin(actor);
  const id = pathId(bedId, 'Bed');
  const { label } = readInput(BedLabelRequest, body);
  return deps.transaction(async (tx) => {
    const bed = ensure(await tx.beds.rename(id, label), () => notFound('Bed'));
    await tx.audit.record({ actor, action: 'update', entity: 'bed', entityId: id, details: { label } });
    return bedJson(bed, actor);
  });
}

/** A bed leaves service; refused while anyone holds it (reserved, occupied or about to leave). */
export async function retireBed(deps: InpatientDeps, bedId: RawId, actor: Actor) {
  requireAdmin(actor);
  const id = pathId(bedId, 'Bed');
  return deps.transaction(async (tx) => {
    const bed = await lockInService(tx, id);
    if (bed.holder) throw conflict('bed_occupied', 'Someone holds this bed; it can be retired once it is free');
    await tx.beds.retire(id, tx.clock.now());
    await tx.audit.record({ actor, action: 'retire', entity: 'bed', entityId: id });
    return bedJson({ ...bed, retiredAt: tx.clock.now() }, actor);
  });
}

/** An admin gives a room its bed class and nightly rate; stays already in its beds keep the rate they began with. */
export async function setRoomClass(deps: InpatientDeps, roomId: RawId, body: unknown, actor: Actor) {
  requireAdmin(actor);
  const id = pathId(roomId, 'Room');
  const request = readInput(RoomClassRequest, body);
  const bedClass = request.bed_class;
  const nightlyRateCents = parseCents(request.nightly_rate) ?? 0;
  return deps.transaction(async (tx) => {
    const saved = ensure(await tx.beds.setRoomClass(id, bedClass, nightlyRateCents, tx.clock.now()), () =>
      notFound('Room'),
    );
    await tx.audit.record({
      actor,
      action: 'update',
      entity: 'room',
      entityId: id,
      details: { bed_class: bedClass, nightly_rate_cents: nightlyRateCents },
    });
    return roomClassJson(saved);
  });
}

/** The desk blocks a free bed for maintenance or isolation, with a reason. */
export async function blockBed(deps: InpatientDeps, bedId: RawId, body: unknown, actor: Actor) {
  requireDesk(actor);
  const id = pathId(bedId, 'Bed');
  const { kind, reason } = readInput(BlockBedRequest, body);
  return housekeeping(deps, id, actor, (bed) => {
    if (bed.holder) throw conflict('bed_occupied', 'Someone holds this bed; it can be blocked once it is free');
    return { state: kind, reason };
  });
}

/** A blocked bed back in service: it is cleaned before the next patient. */
export async function unblockBed(deps: InpatientDeps, bedId: RawId, actor: Actor) {
  requireDesk(actor);
  return housekeeping(deps, pathId(bedId, 'Bed'), actor, (bed) => {
    if (bedState(bed) !== 'blocked') throw conflict('bed_not_blocked', 'This bed is not blocked');
    return { state: 'cleaning', reason: null };
  });
}

/** Someone marks a cleaned bed ready for the next patient. */
export async function markBedReady(deps: InpatientDeps, bedId: RawId, actor: Actor) {
  requireDesk(actor);
  return housekeeping(deps, pathId(bedId, 'Bed'), actor, (bed) => {
    if (bedState(bed) !== 'cleaning')
      throw conflict('bed_not_cleaning', 'Only a bed being cleaned can be marked ready');
    return { state: 'ready', reason: null };
  });
}

async function housekeeping(
  deps: InpatientDeps,
  id: number,
  actor: Actor,
  next: (bed: Bed) => { state: Bed['housekeeping']; reason: string | null },
): Promise<BedJson> {
  return deps.transaction(async (tx) => {
    const bed = await lockInService(tx, id);
    const { state, reason } = next(bed);
    const at = tx.clock.now();
    await tx.beds.setHousekeeping(id, state, reason, at);
    await tx.audit.record({
      actor,
      action: 'housekeeping',
      entity: 'bed',
      entityId: id,
      details: { from: bed.housekeeping, to: state, ...(reason ? { reason } : {}) },
    });
    return bedJson({ ...bed, housekeeping: state, blockedReason: reason, housekeepingSince: at }, actor);
  });
}

const countStates = (beds: Bed[]) =>
  Object.fromEntries(BED_STATES.map((state) => [state, beds.filter((b) => bedState(b) === state).length])) as Record<
    BedState,
    number
  >;

/** Occupied beds (discharge ordered included) out of the beds in service. */
const occupancy = (beds: Bed[]) => {
  const counts = countStates(beds);
  return beds.length === 0
    ? null
    : Math.round(((counts.occupied + counts.discharge_ordered) / beds.length) * 1000) / 10;
};

/**
 * The bed board: every ward (or one, `department_id`), its rooms and beds, each bed's state and occupant, with the
 * counts per state and the occupancy per ward and over all. Reception sees names and dates, no blocking reason.
 */
export async function bedBoard(deps: InpatientDeps, query: unknown, actor: Actor): Promise<BedBoardJson> {
  const asked = readInput(WardQuery, query).department_id;
  // A nurse's board is their own ward's, whatever they ask for.
  const departmentId = actor.role === 'nurse' ? (actor.wardId ?? 0) : asked;
  const rooms = await deps.beds.board(departmentId);
  const now = deps.clock.now();
  const wards = new Map<number, { ward: BoardRoom['ward']; rooms: BoardRoom[] }>();
  for (const room of rooms) {
    const group = wards.get(room.ward.id) ?? { ward: room.ward, rooms: [] };
    group.rooms.push(room);
    wards.set(room.ward.id, group);
  }
  const all = rooms.flatMap((room) => room.beds);
  const lateDoses =
    actor.role === 'reception'
      ? new Map<number, number>()
      : await deps.beds.lateDoses(
          all.flatMap((bed) => (bed.holder ? [bed.holder.admissionId] : [])),
          deps.clock.now(),
        );
  return {
    wards: [...wards.values()].map(({ ward, rooms: own }) => {
      const beds = own.flatMap((room) => room.beds);
      return {
        id: ward.id,
        name: ward.name,
        rooms: own.map((room) => ({
          id: room.id,
          name: room.name,
          bed_class: room.bedClass,
          nightly_rate: room.nightlyRateCents === null ? null : centsToDecimal(room.nightlyRateCents),
          nightly_rate_cents: room.nightlyRateCents,
          beds: room.beds.map((bed) => ({ ...bedJson(bed, actor, lateDoses), ...boardNews2(bed.news2, actor, now) })),
        })),
        counts: countStates(beds),
        beds: beds.length,
        occupancy_percent: occupancy(beds),
      };
    }),
    counts: countStates(all),
    beds: all.length,
    occupancy_percent: occupancy(all),
  };
}

/** An occupied bed's latest NEWS2 on the board: for clinical staff only, reception never sees a score. */
function boardNews2(news2: BedNews2 | null, actor: Actor, now: Date) {
  if (!seesClinical(actor)) return {};
  return {
    news2: news2 && {
      total: news2.total,
      risk: news2.risk,
      taken_at: news2.takenAt.toISOString(),
      next_due_at: news2.nextDueAt.toISOString(),
      overdue: now.getTime() > news2.nextDueAt.getTime(),
      alert: news2.alert,
    },
  };
}
