import type { Appointment, AppointmentParticipant } from '@medplum/fhirtypes';
import type { AppointmentStatus } from '../scheduling/scheduling.ts';
import { meta, ref, type Named, type Versioned } from './fhir.ts';
import { ID_PARAM, LAST_UPDATED_PARAM, inverse, numericId, storedCode, type ResourceDef } from './resource-def.ts';
import { slotId } from './slot.ts';

/** A booked visit, with the slot of the weekly pattern it took. */
export interface VisitRow extends Versioned {
  patient: Named;
  doctor: Named;
  room: Named | null;
  scheduleId: number;
  date: string;
  start: Date;
  end: Date;
  status: AppointmentStatus;
  created: Date;
}

/** Medora's visit lifecycle on FHIR's appointmentstatus (required binding). */
const APPOINTMENT_STATUS = {
  scheduled: 'booked',
  checked_in: 'arrived',
  completed: 'fulfilled',
  no_show: 'noshow',
  cancelled: 'cancelled',
} as const satisfies Record<AppointmentStatus, Appointment['status']>;

export const visitParticipants = (row: VisitRow): AppointmentParticipant[] => [
  { actor: ref('Patient', row.patient.id, row.patient.name), required: 'required', status: 'accepted' },
  { actor: ref('Practitioner', row.doctor.id, row.doctor.name), required: 'required', status: 'accepted' },
  ...(row.room
    ? [
        {
          actor: ref('Location', row.room.id, row.room.name),
          required: 'required' as const,
          status: 'accepted' as const,
        },
      ]
    : []),
];

export const appointmentResource: ResourceDef<VisitRow, Appointment> = {
  type: 'Appointment',
  params: [
    ID_PARAM,
    LAST_UPDATED_PARAM,
    { name: 'patient', type: 'reference', target: 'Patient', documentation: 'The patient booked' },
    {
      name: 'actor',
      type: 'reference',
      target: 'Practitioner',
      documentation: 'The doctor (Practitioner references only)',
    },
    { name: 'practitioner', type: 'reference', target: 'Practitioner', documentation: 'The doctor' },
    { name: 'date', type: 'date', documentation: 'When the visit starts' },
    {
      name: 'status',
      type: 'token',
      documentation: 'booked | arrived | fulfilled | noshow | cancelled',
      stored: storedCode(inverse(APPOINTMENT_STATUS)),
    },
  ],
  sortDate: 'date',
  isId: numericId,
  patientOf: (row) => row.patient.id,
  toFhir: (row) => ({
    resourceType: 'Appointment',
    id: String(row.id),
    meta: meta(row),
    status: APPOINTMENT_STATUS[row.status],
    start: row.start.toISOString(),
    end: row.end.toISOString(),
    minutesDuration: Math.round((row.end.getTime() - row.start.getTime()) / 60_000),
    slot: [ref('Slot', slotId(row.scheduleId, row.date))],
    created: row.created.toISOString(),
    participant: visitParticipants(row),
  }),
};
