import { conflict } from '../shared/errors.ts';

/**
 * A report per order and its observations, modelled on FHIR's DiagnosticReport and Observation (docs/design.md §8):
 * registered → preliminary → final → corrected/amended. Nothing is corrected in place: each change is a new
 * version of the observation, the earlier one kept with who changed it, when and why.
 */
export const REPORT_STATUSES = ['registered', 'preliminary', 'final', 'corrected', 'amended', 'cancelled'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const REPORT_EVENTS = ['result', 'finalize', 'correct', 'amend', 'cancel'] as const;
export type ReportEvent = (typeof REPORT_EVENTS)[number];

/** From FHIR R4's DiagnosticReport status (hl7.org/fhir/R4/valueset-diagnostic-report-status.html), narrowed to these. */
const TRANSITIONS: Record<ReportStatus, Partial<Record<ReportEvent, ReportStatus>>> = {
  registered: { result: 'preliminary', cancel: 'cancelled' },
  preliminary: { result: 'preliminary', finalize: 'final' },
  final: { correct: 'corrected', amend: 'amended' },
  corrected: { correct: 'corrected', amend: 'amended' },
  amended: { correct: 'corrected', amend: 'amended' },
  cancelled: {},
};

/** The status `event` leads to, or 409 `report_status` naming why not. */
export function reportTransition(from: ReportStatus, event: ReportEvent): ReportStatus {
  const to = TRANSITIONS[from][event];
  if (to === undefined) {
    throw conflict('report_status', `A ${from} report cannot be ${PAST[event]}`);
  }
  return to;
}

const PAST: Record<ReportEvent, string> = {
  result: 'given a new result',
  finalize: 'finalized',
  correct: 'corrected',
  amend: 'amended',
  cancel: 'cancelled',
};

/** Statuses whose values a clinician has signed off: only these can be released to the patient. */
export const SIGNED_OFF: readonly ReportStatus[] = ['final', 'corrected', 'amended'];
export const isSignedOff = (status: ReportStatus) => SIGNED_OFF.includes(status);

export const OBSERVATION_STATUSES = [
  'preliminary',
  'final',
  'corrected',
  'amended',
  'cancelled',
  'entered-in-error',
] as const;
export type ObservationStatus = (typeof OBSERVATION_STATUSES)[number];

/** A value of an observation: one of FHIR's value[x] the catalogue allows. */
export type ObservationValue =
  | { type: 'quantity'; value: number; unit: string }
  | { type: 'coded'; code: string }
  | { type: 'text'; text: string };

/** One version of an observation, as its history keeps it. */
export interface ObservationVersion {
  version: number;
  value: ObservationValue;
  status: ObservationStatus;
  recordedAt: Date;
  recordedBy: number;
  /** Why it changed; null for the first version. */
  reason: string | null;
}

/**
 * A correction of an observation: it names the version it corrects (409 `result_changed` on a stale one, so two
 * corrections never overwrite each other unseen), and becomes the next version with its reason; the history
 * keeps every earlier one. A correction of a value not yet signed off is no correction: it re-enters the result.
 */
export function correction(
  history: readonly ObservationVersion[],
  change: { correcting: number; value: ObservationValue; by: number; at: Date; reason: string },
  reportStatus: ReportStatus,
): ObservationVersion {
  const current = history.at(-1);
  if (!current) throw conflict('result_changed', 'There is no result to correct');
  if (change.correcting !== current.version) {
    throw conflict(
      'result_changed',
      `This result was changed meanwhile: it is now version ${current.version}. Read that version, then correct it.`,
      { version: [`is ${change.correcting}, but the result is now version ${current.version}`] },
    );
  }
  return {
    version: current.version + 1,
    value: change.value,
    status: isSignedOff(reportStatus) ? 'corrected' : 'preliminary',
    recordedAt: change.at,
    recordedBy: change.by,
    reason: change.reason,
  };
}

export const DAY_MS = 86_400_000;

/**
 * Whether the patient sees a report: once a doctor released it, or — when the clinic sets RESULTS_AUTO_RELEASE_DAYS
 * (null: never) — that many days after it was signed off. A report not signed off is never shown.
 */
export function isReleased(
  report: { status: ReportStatus; releasedAt: Date | null; signedOffAt: Date | null },
  now: Date,
  autoReleaseDays: number | null,
): boolean {
  if (!isSignedOff(report.status)) return false;
  if (report.releasedAt !== null && report.releasedAt <= now) return true;
  const auto = autoReleaseAt(report.signedOffAt, autoReleaseDays);
  return auto !== undefined && auto.getTime() <= now.getTime();
}

/** When a report signed off at `signedOffAt` releases itself; undefined when the clinic never does. */
export function autoReleaseAt(signedOffAt: Date | null, autoReleaseDays: number | null): Date | undefined {
  if (signedOffAt === null || autoReleaseDays === null) return undefined;
  return new Date(signedOffAt.getTime() + autoReleaseDays * DAY_MS);
}

/** RESULTS_AUTO_RELEASE_DAYS as configured: unset or "never" → null; otherwise whole days from 0 to 365. */
export function readAutoReleaseDays(raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === '' || raw.trim().toLowerCase() === 'never') return null;
  const days = Number(raw);
  if (!Number.isInteger(days) || days < 0 || days > 365)
    throw new Error(`RESULTS_AUTO_RELEASE_DAYS must be whole days from 0 to 365, or "never"; got ${raw}`);
  return days;
}

/** Critical results not acknowledged within this go to every doctor of the ordering doctor's department too. */
export const CRITICAL_ESCALATION_MINUTES = 30;

/** Who is told of a critical result, and when: the ordering doctor at once, the department at 30 minutes. */
export function criticalNotices(raisedAt: Date): { to: 'ordering_doctor' | 'department'; at: Date }[] {
  return [
    { to: 'ordering_doctor', at: raisedAt },
    { to: 'department', at: escalatesAt(raisedAt) },
  ];
}

export const escalatesAt = (raisedAt: Date) => new Date(raisedAt.getTime() + CRITICAL_ESCALATION_MINUTES * 60_000);

/**
 * Who may acknowledge a critical result at `now`: the ordering doctor always; a doctor of the ordering doctor's
 * department once it has gone unacknowledged for 30 minutes; nobody else.
 */
export function mayAcknowledge(
  alert: { raisedAt: Date; orderingDoctorId: number; departmentId: number | null },
  doctor: { id: number; departmentId: number | null },
  now: Date,
): boolean {
  if (doctor.id === alert.orderingDoctorId) return true;
  return (
    alert.departmentId !== null &&
    doctor.departmentId === alert.departmentId &&
    now.getTime() >= escalatesAt(alert.raisedAt).getTime()
  );
}

/**
 * The versions of a result a patient may see: the one they were shown at release and each correction after it. A
 * value corrected before release is never shown (the patient never saw it); with no correction since, nothing.
 * Release and correction take the order's lock before reading the clock, so their times are in the order they
 * happened.
 */
export function historySinceRelease<V extends { recordedAt: Date }>(
  versions: readonly V[],
  released: Date | null,
): V[] {
  if (released === null) return [];
  const later = versions.filter((v) => v.recordedAt > released);
  const shown = versions.filter((v) => v.recordedAt <= released).at(-1);
  return later.length === 0 || shown === undefined ? [] : [shown, ...later];
}
