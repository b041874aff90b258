import type { Location } from '@medplum/fhirtypes';
import { bedLocation, isBedId, type BedRow } from './bed-location.ts';
import { clinicRef, meta, type FhirContext, type Named, type Versioned } from './fhir.ts';
import { ID_PARAM, LAST_UPDATED_PARAM, numericId, type ResourceDef } from './resource-def.ts';

/** A room of a department. */
export interface RoomRow extends Versioned {
  kind: 'room';
  name: string;
  department: Named;
}

/** A Location is a room or a bed in one. */
export type LocationRow = RoomRow | BedRow;

const roomLocation = (row: RoomRow, ctx: FhirContext): Location => ({
  resourceType: 'Location',
  id: String(row.id),
  meta: meta(row),
  status: 'active',
  mode: 'instance',
  name: row.name,
  description: row.department.name,
  physicalType: {
    coding: [{ system: 'http://terminology.hl7.org/CodeSystem/location-physical-type', code: 'ro', display: 'Room' }],
  },
  managingOrganization: clinicRef(ctx),
});

export const locationResource: ResourceDef<LocationRow, Location> = {
  type: 'Location',
  params: [
    ID_PARAM,
    LAST_UPDATED_PARAM,
    { name: 'name', type: 'string', documentation: "The start of the room's name or the bed's" },
    { name: 'partof', type: 'reference', target: 'Location', documentation: "A bed's room" },
  ],
  isId: (id) => numericId(id) || isBedId(id),
  toFhir: (row, ctx) => (row.kind === 'bed' ? bedLocation(row, ctx) : roomLocation(row, ctx)),
};
