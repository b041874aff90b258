import type { Slot } from '@medplum/fhirtypes';
import { meta, ref } from './fhir.ts';
import { ID_PARAM, storedCode, type ResourceDef } from './resource-def.ts';

/**
 * Free, taken by a booking, or out of the pattern (`busy-unavailable`): a slot an appointment took on a row since
 * retired, or on a date of another weekday (a visit the desk fitted in), which is made for that appointment alone.
 */
export type SlotStatus = 'free' | 'busy' | 'busy-unavailable';

/**
 * One weekly pattern row on one date. Slots are not stored: the id names the pattern row and the date, and the
 * meta has no version, only the later of the pattern's and the booking's changes.
 */
export interface SlotRow {
  id: string;
  doctorId: number;
  start: Date;
  end: Date;
  status: SlotStatus;
  updatedAt: Date;
}

export const slotId = (scheduleRowId: number, date: string) => `${scheduleRowId}-${date}`;
const SLOT_ID = /^([1-9]\d{0,9})-(\d{4}-\d{2}-\d{2})$/;

export const slotResource: ResourceDef<SlotRow, Slot> = {
  type: 'Slot',
  params: [
    ID_PARAM,
    { name: 'schedule', type: 'reference', target: 'Schedule', documentation: "The doctor's Schedule" },
    {
      name: 'start',
      type: 'date',
      documentation: 'When the slot starts; by default the next four weeks, at most 92 days at once',
    },
    {
      name: 'status',
      type: 'token',
      documentation: 'free | busy | busy-unavailable',
      stored: storedCode({ free: ['free'], busy: ['busy'], 'busy-unavailable': ['busy-unavailable'] }),
    },
  ],
  sortDate: 'start',
  isId: (id) => SLOT_ID.test(id),
  toFhir: (row) => ({
    resourceType: 'Slot',
    id: row.id,
    meta: meta({ updatedAt: row.updatedAt }),
    schedule: ref('Schedule', row.doctorId),
    status: row.status,
    start: row.start.toISOString(),
    end: row.end.toISOString(),
  }),
};
