/** The ward's answers as the UI reads them, and their states and refusals in plain words. */
import type { BedState, BlockKind } from '../../domain/inpatient/inpatient.ts';
import type { AdmissionDetailJson, BedJson } from '../../domain/inpatient/inpatient-shapes.ts';
import { ApiError } from '../api.ts';
import { failure, type AlertMessage } from './alert.tsx';

export type { BedState } from '../../domain/inpatient/inpatient.ts';
export type {
  AdmissionDetailJson,
  AdmissionJson,
  BedBoardJson,
  BedJson,
  BoardRoomJson,
  PrintedSummaryJson,
  WardJson,
} from '../../domain/inpatient/inpatient-shapes.ts';

export const BED_STATE_LABELS: Record<BedState, string> = {
  vacant: 'Vacant',
  reserved: 'Reserved',
  occupied: 'Occupied',
  discharge_ordered: 'Discharge ordered',
  cleaning: 'Being cleaned',
  blocked: 'Blocked',
};

/** The bed states in the board's order. */
export const BED_STATES = Object.keys(BED_STATE_LABELS) as BedState[];

export const BLOCK_KIND_LABELS: Record<BlockKind, string> = {
  maintenance: 'Maintenance',
  isolation: 'Isolation',
};

/** The server's UNDO_WINDOW_MINUTES: how long after admitting the desk is offered Undo (the server has the last word). */
export const UNDO_WINDOW_MS = 15 * 60_000;

export const ADMISSION_STATUS_LABELS: Record<AdmissionDetailJson['status'], string> = {
  requested: 'Waiting for a bed',
  reserved: 'Bed reserved',
  admitted: 'In a bed',
  discharge_ordered: 'Discharge ordered',
  discharged: 'Discharged',
  cancelled: 'Cancelled',
};

/** Where a bed is: 'Room 1, bed A'. */
export const bedPlace = (bed: { label: string; room: { name: string } }) => `${bed.room.name}, bed ${bed.label}`;

/** The ward's refusals (409s), each in words that say what to do. */
const REFUSALS: Record<string, string> = {
  bed_taken: 'Someone else has just taken this bed. Choose another one.',
  bed_not_vacant: 'This bed is not free: it is being cleaned or is blocked. Choose another one.',
  already_admitted: 'This patient is already admitted or waiting for a bed.',
  not_admitted: 'This patient has not been admitted yet.',
  discharge_not_ordered: 'A doctor must order the discharge before the patient can leave.',
  discharge_already_ordered: 'The discharge of this patient has already been ordered.',
  already_discharged: 'This stay has already ended: the patient was discharged.',
  admission_cancelled: 'This admission was cancelled.',
  same_bed: 'The patient is already in this bed.',
  bed_required: 'Choose a bed for this admission.',
  undo_window_passed: 'It is too late to undo this admission. Transfer or discharge the patient instead.',
  bed_occupied: 'Someone holds this bed. It can be changed once it is free.',
};

/** A ward action's failure: the refusal in plain words, else the server's own, else `fallback`. */
export function wardFailure(error: unknown, fallback: string): AlertMessage {
  if (!(error instanceof ApiError)) return failure(fallback);
  return failure(REFUSALS[error.code] ?? (error.status === 409 || error.status === 422 ? error.message : fallback));
}

/** Whether the bed can take a waiting patient now. */
export const isVacant = (bed: BedJson) => bed.state === 'vacant';
