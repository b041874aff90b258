/**
 * What the two booking bursts share — booking-burst.ts (instances inside the bench's process) and
 * burst-processes.ts (two real `medora serve` processes): each patient's booking of a slot of its own, a client
 * that books again after a 503 as Retry-After asks, and the tally of the answers.
 */
import type { App } from '../../src/app.ts';
import type { Queryable } from '../../src/db/db.ts';
import { at, present } from '../../src/testing/assert.ts';
import { SLOTS_A_DAY, createDoctors, createPatients, isoWeekdayOf, signInBySql } from './two-instances.ts';

export interface BookingRequest {
  token: string;
  body: string;
}

/**
 * Doctors enough for `n` free slots on `dates`, `n` patients with a session each (valid until `sessionsUntil`), and
 * each patient's booking of a slot of their own.
 */
export async function bookingRequests(
  app: App,
  db: Queryable,
  { n, dates, sessionsUntil }: { n: number; dates: string[]; sessionsUntil: Date },
): Promise<BookingRequest[]> {
  const doctors = await createDoctors(app, Math.ceil(n / (SLOTS_A_DAY * dates.length)));
  const tokens = await signInBySql(db, await createPatients(db, n, 'burst'), sessionsUntil);
  return tokens.map((token, i) => {
    const doctor = at(doctors, i % doctors.length, 'doctor');
    const k = Math.floor(i / doctors.length);
    const date = at(dates, Math.floor(k / SLOTS_A_DAY), 'date');
    return {
      token,
      body: JSON.stringify({
        doctor_id: doctor.id,
        schedule_id: present(doctor.slotsOn.get(isoWeekdayOf(date)), 'schedule')[k % SLOTS_A_DAY],
        date,
      }),
    };
  });
}

/** One patient's booking: how many tries it took, the last answer, when it came, and each 503's code and wait. */
export interface PatientBooking {
  tries: number;
  /** `201`, or the status and code of the answer it ended with. */
  last: string;
  /** performance.now() of the last answer. */
  at: number;
  /** Every 503 on the way: its code and how long the server held the request before answering it, in ms. */
  unavailable: { code: string; heldMs: number }[];
}

/** A client that books, and on a 503 waits what Retry-After asks and books again, until `maxWaitMs` have passed. */
export async function bookPatiently(
  url: string,
  { token, body }: BookingRequest,
  maxWaitMs: number,
): Promise<PatientBooking> {
  const giveUpAt = performance.now() + maxWaitMs;
  const unavailable: PatientBooking['unavailable'] = [];
  for (let tries = 1; ; tries++) {
    const sent = performance.now();
    const res = await fetch(`${url}/api/appointments/book`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    const answer = (await res.json().catch(() => ({}))) as { code?: string };
    const now = performance.now();
    if (res.status !== 503)
      return { tries, last: res.status === 201 ? '201' : `${res.status} ${answer.code}`, at: now, unavailable };
    unavailable.push({ code: answer.code ?? '?', heldMs: Math.round(now - sent) });
    const waitMs = Number(res.headers.get('retry-after') ?? 1) * 1000;
    if (now + waitMs > giveUpAt) return { tries, last: `503 ${answer.code} (gave up)`, at: now, unavailable };
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}

export interface BurstTally {
  firstTry: number;
  booked: number;
  retries: number;
  /** Answers other than 201 that a booking ended with, by status and code. */
  refused: Record<string, number>;
  /** The 503s on the way, by code, with the median and longest time the server held one before answering. */
  unavailable: Record<string, { count: number; medianHeldMs: number; maxHeldMs: number }>;
}

/** The answers of a burst counted: on the first try, in all, the retries, and what the 503s were. */
export function tallyBurst(answers: PatientBooking[]): BurstTally {
  const refused: Record<string, number> = {};
  for (const a of answers) if (a.last !== '201') refused[a.last] = (refused[a.last] ?? 0) + 1;
  const held = new Map<string, number[]>();
  for (const { code, heldMs } of answers.flatMap((a) => a.unavailable))
    held.set(code, [...(held.get(code) ?? []), heldMs]);
  const unavailable = Object.fromEntries(
    [...held].map(([code, ms]) => {
      const sorted = [...ms].sort((a, b) => a - b);
      return [
        code,
        {
          count: ms.length,
          medianHeldMs: at(sorted, Math.floor(sorted.length / 2), 'held'),
          maxHeldMs: Math.max(...ms),
        },
      ];
    }),
  );
  return {
    firstTry: answers.filter((a) => a.tries === 1 && a.last === '201').length,
    booked: answers.filter((a) => a.last === '201').length,
    retries: answers.reduce((sum, a) => sum + a.tries - 1, 0),
    refused,
    unavailable,
  };
}
