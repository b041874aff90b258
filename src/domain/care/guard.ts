import { refusal } from '../audit/audit.ts';
import type { Actor } from '../shared/actor.ts';
import { boundByCareTeam, boundByWard, refusedByCareTeam, type Reach } from './care.ts';
import type { CareCheck } from './ports.ts';

/** What a refused doctor was after, for the 404 and the audit row of the refusal. */
export interface CareTarget {
  /** The patient whose data it is; undefined when the thing asked for does not exist (refused alike). */
  patientId: number | undefined;
  what: string;
  entity: string;
  entityId: number;
  attempt: string;
}

/**
 * Every clinical read and write asks this first: how the actor reaches the patient (undefined for a role the care
 * team does not bind). A doctor outside the team, without a break-the-glass access open now, is refused exactly as
 * if the thing did not exist (404). The refusal is thrown unrecorded: run the use case in `recordingRefusals`, which
 * records it once any transaction it was thrown in has rolled back.
 */
export async function requireCare(deps: CareCheck, actor: Actor, target: CareTarget): Promise<Reach | undefined> {
  if (!boundByCareTeam(actor) && !boundByWard(actor)) return undefined;
  const reach =
    target.patientId === undefined ? undefined : (await reachOf(deps, actor, [target.patientId])).get(target.patientId);
  if (refusedByCareTeam(actor, reach)) {
    throw refusal(target.what, actor, {
      entity: target.entity,
      entityId: target.entityId,
      patientId: target.patientId,
      attempt: target.attempt,
    });
  }
  return reach;
}

/** How the actor reaches each patient of a list, in one query, and whether their clinical data may be shown. */
export interface ListReach {
  reach: Map<number, Reach>;
  shows(patientId: number): boolean;
}

export async function reachOfList(deps: CareCheck, actor: Actor, patientIds: readonly number[]): Promise<ListReach> {
  if (!boundByCareTeam(actor) && !boundByWard(actor)) return { reach: new Map(), shows: () => true };
  const ids = [...new Set(patientIds)];
  const reach = ids.length === 0 ? new Map<number, Reach>() : await reachOf(deps, actor, ids);
  return { reach, shows: (patientId) => !refusedByCareTeam(actor, reach.get(patientId)) };
}

/** How a doctor (care team, break the glass) or a nurse (their ward) reaches each of `ids`: one query. */
async function reachOf(deps: CareCheck, actor: Actor, ids: readonly number[]): Promise<Map<number, Reach>> {
  if (boundByCareTeam(actor)) return deps.careTeam.reach(actor.doctorId, ids, deps.clock.now());
  if (actor.wardId === undefined) return new Map();
  const onWard = await deps.careTeam.onWard(actor.wardId, ids);
  return new Map([...onWard].map((id) => [id, { via: 'ward' }]));
}
