import type { Schedule } from '@medplum/fhirtypes';
import { meta, ref, type Versioned } from './fhir.ts';
import { ID_PARAM, LAST_UPDATED_PARAM, booleanToken, numericId, type ResourceDef } from './resource-def.ts';

/** A doctor's bookable time: one Schedule per doctor, with the doctor's id; its Slots come from the weekly pattern. */
export interface ScheduleRow extends Versioned {
  name: string;
  active: boolean;
}

export const scheduleResource: ResourceDef<ScheduleRow, Schedule> = {
  type: 'Schedule',
  params: [
    ID_PARAM,
    LAST_UPDATED_PARAM,
    { name: 'actor', type: 'reference', target: 'Practitioner', documentation: 'The doctor whose time it is' },
    { name: 'active', type: 'token', documentation: 'true | false', stored: booleanToken },
  ],
  isId: numericId,
  toFhir: (row) => ({
    resourceType: 'Schedule',
    id: String(row.id),
    meta: meta(row),
    active: row.active,
    actor: [ref('Practitioner', row.id, row.name), ref('PractitionerRole', row.id)],
  }),
};
