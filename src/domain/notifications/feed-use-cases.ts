/** Making, replacing and turning off one's calendar feed, and reading a feed by its token. */
import type { AuditLog } from '../audit/audit.ts';
import { forbidden, notFound, ensure } from '../shared/errors.ts';
import type { Actor } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import { doctorFeed, feedWindow, patientFeed } from './feed.ts';
import type { Clinic } from './message.ts';
import type { CalendarFeedStore } from './ports.ts';
import type { CalendarFeedJson } from './notifications-shapes.ts';

export interface FeedTxDeps {
  feeds: CalendarFeedStore;
  audit: AuditLog;
}

export interface FeedDeps extends FeedTxDeps {
  clock: Clock;
  clinic: Clinic;
  transaction<T>(fn: (tx: FeedTxDeps) => Promise<T>): Promise<T>;
}

/** Tokens are 43 base64url characters; anything else is no token of ours and needs no lookup. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,100}$/;

function feedUser(actor: Actor): number {
  if (actor.role !== 'doctor' && actor.role !== 'patient')
    throw forbidden('Calendar feeds are for doctors and patients');
  return actor.userId;
}

/** Whether the actor has a feed, and since when; the address itself is shown only when it is made. */
export async function calendarFeedStatus(deps: FeedDeps, actor: Actor): Promise<CalendarFeedJson> {
  const feed = await deps.feeds.find(feedUser(actor));
  return { active: feed !== undefined, created_at: feed?.createdAt.toISOString() ?? null };
}

/** A new private address for the actor's calendar; the one they had stops working. */
export async function makeCalendarFeed(deps: FeedDeps, actor: Actor): Promise<{ token: string; created_at: string }> {
  const userId = feedUser(actor);
  const now = deps.clock.now();
  return deps.transaction(async (tx) => {
    const token = await tx.feeds.replace(userId, now);
    await tx.audit.record({
      actor,
      action: 'create',
      entity: 'calendar_feed',
      entityId: userId,
      requestId: actor.requestId,
    });
    return { token, created_at: now.toISOString() };
  });
}

/** The actor's feed address stops working; turning off a feed that is off changes nothing. */
export async function turnOffCalendarFeed(deps: FeedDeps, actor: Actor): Promise<void> {
  const userId = feedUser(actor);
  await deps.transaction(async (tx) => {
    if (await tx.feeds.remove(userId)) {
      await tx.audit.record({
        actor,
        action: 'delete',
        entity: 'calendar_feed',
        entityId: userId,
        requestId: actor.requestId,
      });
    }
  });
}

/**
 * The iCalendar text of the feed `token` opens; an unknown or revoked token is not found. A read is audited as
 * its owner's, whose calendar application reads it on their behalf.
 */
export async function calendarFeed(deps: FeedDeps, token: string, requestId?: string): Promise<string> {
  const owner = ensure(TOKEN_SHAPE.test(token) ? await deps.feeds.ownerOf(token) : undefined, () =>
    notFound('Calendar feed'),
  );
  const { from, to } = feedWindow(deps.clock, deps.clinic.timeZone);
  const now = deps.clock.now();
  const actor: Actor = {
    userId: owner.userId,
    role: owner.role,
    name: owner.name,
    requestId,
    ...(owner.role === 'doctor' ? { doctorId: owner.doctorId } : { patientId: owner.patientId }),
  };
  let feed: string;
  let visits: number;
  if (owner.role === 'doctor') {
    const found = await deps.feeds.doctorVisits(owner.doctorId, from, to);
    [feed, visits] = [doctorFeed(deps.clinic, owner.name, found, now), found.length];
  } else {
    const found = await deps.feeds.patientVisits(owner.patientId, from, to);
    [feed, visits] = [patientFeed(deps.clinic, found, now), found.length];
  }
  await deps.audit.record({
    actor,
    action: 'read_calendar_feed',
    entity: 'calendar_feed',
    entityId: owner.userId,
    patientId: owner.role === 'patient' ? owner.patientId : null,
    requestId,
    details: { from, to, visits },
  });
  return feed;
}
