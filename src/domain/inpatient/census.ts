import { addDays, clinicDateTime, clinicInstant } from '../shared/clock.ts';
import type { Census, CensusDay, CensusWardTotal } from './inpatient-shapes.ts';

/**
 * The midnight census (issue 34): a day's census counts who was in a bed at the midnight that ends it, in the
 * clinic's zone, and each such midnight is one night billed. A stay in a bed from `start` to `end` is in it at
 * midnight `m` when start < m ≤ end: a patient who arrives exactly at midnight is counted from the next one, one who
 * leaves exactly at midnight is still counted at it, and a transfer at midnight counts that night once, in the
 * bed left.
 */
export const censusMidnight = (date: string, timeZone: string): Date =>
  clinicInstant(addDays(date, 1), '00:00', timeZone);

/** One bed a stay occupied, from `startedAt` until `endedAt` (null: still there). */
export interface Segment {
  admissionId: number;
  wardId: number;
  wardName: string;
  startedAt: Date;
  endedAt: Date | null;
  endedBy: 'transfer' | 'discharge' | null;
}

export const inBedAt = (segment: Pick<Segment, 'startedAt' | 'endedAt'>, midnight: Date): boolean =>
  segment.startedAt < midnight && (segment.endedAt === null || segment.endedAt >= midnight);

/** The census dates at whose midnight the segment is in its bed, up to `until` (a stay still running, as of now). */
export function censusNights(segment: Pick<Segment, 'startedAt' | 'endedAt'>, timeZone: string, until: Date): string[] {
  const end = segment.endedAt ?? until;
  const nights: string[] = [];
  // The census date whose midnight is the first after the start: the day the stay began, or the day before it
  // when it began exactly at a midnight.
  let date = addDays(clinicDateTime(segment.startedAt, timeZone).date, -1);
  while (censusMidnight(date, timeZone) <= segment.startedAt) date = addDays(date, 1);
  for (; censusMidnight(date, timeZone) <= end; date = addDays(date, 1)) nights.push(date);
  return nights;
}

/** A bed of a ward, counted on the days it existed (created before the day's midnight, not yet retired at it). */
export interface WardBed {
  wardId: number;
  wardName: string;
  createdAt: Date;
  retiredAt: Date | null;
}

const percent = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 1000) / 10);
const average = (values: number[]) =>
  values.length === 0 ? null : Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 10) / 10;

/**
 * The census of `from`..`to` per ward and day: who was in a bed at each midnight, admissions, discharges and
 * transfers on the day (by the clinic's date of the event; an admission in the ward of its first bed, a discharge
 * or transfer in the ward left), the beds that existed and occupancy. `segments` are every bed of every stay that
 * touches the period, whole (the length of stay needs the nights before it too); `now` ends stays still running.
 */
export function countCensus(input: {
  from: string;
  to: string;
  timeZone: string;
  now: Date;
  segments: Segment[];
  beds: WardBed[];
}): Census {
  const { from, to, timeZone, segments, beds } = input;
  const dates: string[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) dates.push(date);
  const wards = new Map<number, string>();
  // The wards are those of `beds` (every bed, retired too, of the wards asked for); segments may reach into others.
  for (const { wardId, wardName } of beds) wards.set(wardId, wardName);
  const dayOf = (at: Date) => clinicDateTime(at, timeZone).date;
  const byAdmission = new Map<number, Segment[]>();
  for (const s of segments) byAdmission.set(s.admissionId, [...(byAdmission.get(s.admissionId) ?? []), s]);
  const firsts = [...byAdmission.values()].map((stay) => stay.reduce((a, b) => (b.startedAt < a.startedAt ? b : a)));

  const days: CensusDay[] = [];
  for (const [wardId, wardName] of [...wards].sort((a, b) => a[1].localeCompare(b[1]) || a[0] - b[0])) {
    const inWard = segments.filter((s) => s.wardId === wardId);
    for (const date of dates) {
      const midnight = censusMidnight(date, timeZone);
      const bedCount = beds.filter(
        (b) => b.wardId === wardId && b.createdAt < midnight && (b.retiredAt === null || b.retiredAt >= midnight),
      ).length;
      const inBed = inWard.filter((s) => inBedAt(s, midnight)).length;
      days.push({
        date,
        department_id: wardId,
        department: wardName,
        beds: bedCount,
        in_bed_at_midnight: inBed,
        admissions: firsts.filter((s) => s.wardId === wardId && dayOf(s.startedAt) === date).length,
        discharges: inWard.filter((s) => s.endedBy === 'discharge' && s.endedAt !== null && dayOf(s.endedAt) === date)
          .length,
        transfers: inWard.filter((s) => s.endedBy === 'transfer' && s.endedAt !== null && dayOf(s.endedAt) === date)
          .length,
        occupancy_percent: percent(inBed, bedCount),
      });
    }
  }

  const wardTotals = [...new Set(days.map((d) => d.department_id))].map((wardId): CensusWardTotal => {
    const own = days.filter((d) => d.department_id === wardId);
    const sum = (key: 'in_bed_at_midnight' | 'beds' | 'admissions' | 'discharges' | 'transfers') =>
      own.reduce((n, d) => n + d[key], 0);
    const discharged = segments.filter(
      (s) =>
        s.wardId === wardId &&
        s.endedBy === 'discharge' &&
        s.endedAt !== null &&
        dayOf(s.endedAt) >= from &&
        dayOf(s.endedAt) <= to,
    );
    const lengths = discharged.map((s) =>
      (byAdmission.get(s.admissionId) ?? []).reduce((n, seg) => n + censusNights(seg, timeZone, input.now).length, 0),
    );
    return {
      department_id: wardId,
      department: own[0]?.department ?? '',
      patient_nights: sum('in_bed_at_midnight'),
      bed_nights: sum('beds'),
      admissions: sum('admissions'),
      discharges: sum('discharges'),
      transfers: sum('transfers'),
      occupancy_percent: percent(sum('in_bed_at_midnight'), sum('beds')),
      average_length_of_stay: average(lengths),
    };
  });
  return { from, to, time_zone: timeZone, days, wards: wardTotals };
}
