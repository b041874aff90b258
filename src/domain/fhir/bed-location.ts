import type { Location } from '@medplum/fhirtypes';
import type { AdmissionStatus, Housekeeping } from '../inpatient/inpatient.ts';
import { clinicRef, meta, ref, type FhirContext, type Named } from './fhir.ts';
import { prefixedId } from './resource-def.ts';

/** A bed's Location id: `bed-<bed id>`, beside the rooms' numeric ones. */
export const BED_ID_PREFIX = 'bed-';
export const isBedId = prefixedId(BED_ID_PREFIX);

/** A bed of a ward's room, with the status of the admission holding it, if one does. */
export interface BedRow {
  kind: 'bed';
  id: number;
  /** The later of the bed's own change and its holder's: who holds a bed is the admission's row. */
  updatedAt: Date;
  label: string;
  room: Named;
  ward: Named;
  housekeeping: Housekeeping;
  retired: boolean;
  holder: AdmissionStatus | null;
}

const BED_STATUS = 'http://terminology.hl7.org/CodeSystem/v2-0116';
const OPERATIONAL = {
  occupied: { system: BED_STATUS, code: 'O', display: 'Occupied' },
  unoccupied: { system: BED_STATUS, code: 'U', display: 'Unoccupied' },
  housekeeping: { system: BED_STATUS, code: 'H', display: 'Housekeeping' },
  closed: { system: BED_STATUS, code: 'C', display: 'Closed' },
  isolated: { system: BED_STATUS, code: 'I', display: 'Isolated' },
};

/** What the bed board shows, on HL7's bed status (v2 table 0116): a reserved bed is still empty. */
function operationalStatus(row: BedRow) {
  if (row.holder === 'admitted' || row.holder === 'discharge_ordered') return OPERATIONAL.occupied;
  if (row.housekeeping === 'cleaning') return OPERATIONAL.housekeeping;
  if (row.housekeeping === 'maintenance') return OPERATIONAL.closed;
  if (row.housekeeping === 'isolation') return OPERATIONAL.isolated;
  return OPERATIONAL.unoccupied;
}

/** A bed as a Location inside its room's. No versionId: the holder's row changes it too, and the two counters do not add up to one. */
export function bedLocation(row: BedRow, ctx: FhirContext): Location {
  const blocked = row.housekeeping === 'maintenance' || row.housekeeping === 'isolation';
  return {
    resourceType: 'Location',
    id: `${BED_ID_PREFIX}${row.id}`,
    meta: meta({ updatedAt: row.updatedAt }),
    status: row.retired ? 'inactive' : blocked ? 'suspended' : 'active',
    operationalStatus: row.retired ? undefined : operationalStatus(row),
    mode: 'instance',
    name: `${row.room.name} ${row.label}`,
    alias: [row.label],
    description: row.ward.name,
    physicalType: {
      coding: [{ system: 'http://terminology.hl7.org/CodeSystem/location-physical-type', code: 'bd', display: 'Bed' }],
    },
    managingOrganization: clinicRef(ctx),
    partOf: ref('Location', row.room.id, row.room.name),
  };
}
