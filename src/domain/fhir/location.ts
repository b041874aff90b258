import type { Location } from '@medplum/fhirtypes';
import { clinicRef, meta, type Named, type Versioned } from './fhir.ts';
import { ID_PARAM, LAST_UPDATED_PARAM, numericId, type ResourceDef } from './resource-def.ts';

/** A room of a department. */
export interface RoomRow extends Versioned {
  name: string;
  department: Named;
}

export const locationResource: ResourceDef<RoomRow, Location> = {
  type: 'Location',
  params: [ID_PARAM, LAST_UPDATED_PARAM, { name: 'name', type: 'string', documentation: "The start of the room's name" }],
  isId: numericId,
  toFhir: (row, ctx) => ({
    resourceType: 'Location',
    id: String(row.id),
    meta: meta(row),
    status: 'active',
    mode: 'instance',
    name: row.name,
    description: row.department.name,
    physicalType: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/location-physical-type', code: 'ro', display: 'Room' }] },
    managingOrganization: clinicRef(ctx),
  }),
};
