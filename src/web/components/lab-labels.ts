/** The lab's answers as the UI reads them, and their codes in words. */
import type { ObservationJson } from '../../domain/lab/lab-shapes.ts';
import { formatDateTime } from '../format.ts';

export type {
  LabOrderJson,
  LabTestJson,
  MyResultJson,
  ObservationJson,
  OrderCostJson,
  ReviewEntryJson,
  StandingAlertJson,
  UnmatchedResultJson,
  WorkOrderJson,
} from '../../domain/lab/lab-shapes.ts';

export const PRIORITY_LABELS = { routine: 'Routine', urgent: 'Urgent', stat: 'STAT' } as const;

export const ITEM_STATUS_LABELS = {
  waiting: 'Waiting for collection',
  collected: 'Collected',
  rejected: 'Specimen rejected',
  resulted: 'Resulted',
  cancelled: 'Cancelled',
} as const;

export const REPORT_STATUS_LABELS = {
  registered: 'Ordered',
  preliminary: 'Preliminary',
  final: 'Final',
  corrected: 'Corrected',
  amended: 'Amended',
  cancelled: 'Cancelled',
} as const;

/** The flag beside a value: N shows nothing, the others their letters and words. */
export const FLAG_LABELS = {
  N: '',
  L: 'L · low',
  H: 'H · high',
  LL: 'LL · critically low',
  HH: 'HH · critically high',
} as const;

export const REJECTION_LABELS = {
  haemolysed: 'Haemolysed',
  clotted: 'Clotted',
  mislabelled: 'Mislabelled',
  insufficient: 'Insufficient volume',
  contaminated: 'Contaminated',
  other: 'Other',
} as const;

type Value = Pick<ObservationJson, 'value_type' | 'value' | 'unit' | 'answer' | 'text'>;

/** A value as written: "5.4 mmol/L", a coded answer, or a report's text. */
export function valueText(v: Value): string {
  if (v.value_type === 'quantity') return v.unit && v.unit !== '1' ? `${v.value} ${v.unit}` : String(v.value);
  if (v.value_type === 'coded') return v.answer ?? '';
  return v.text ?? '';
}

export const isCriticalFlag = (flag: string | null) => flag === 'LL' || flag === 'HH';

/** "Recorded … by …, because …" for one version of a result. */
export function versionLine(v: { recorded_at: string; recorded_by?: string | null; reason: string | null }): string {
  const by = v.recorded_by ? ` by ${v.recorded_by}` : '';
  return `${formatDateTime(v.recorded_at)}${by}${v.reason ? ` — ${v.reason}` : ''}`;
}
