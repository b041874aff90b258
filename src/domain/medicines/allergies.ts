import { conflict, invalid } from '../shared/errors.ts';
import type { FormularyEntry } from './formulary.ts';

/** FHIR AllergyIntolerance.type. */
export const ALLERGY_TYPES = ['allergy', 'intolerance'] as const;
export type AllergyType = (typeof ALLERGY_TYPES)[number];

/** FHIR AllergyIntolerance.reaction.severity. */
export const ALLERGY_SEVERITIES = ['mild', 'moderate', 'severe'] as const;
export type AllergySeverity = (typeof ALLERGY_SEVERITIES)[number];

/** FHIR AllergyIntolerance.clinicalStatus; `entered-in-error` is its verificationStatus, kept here as a status. */
export const ALLERGY_STATUSES = ['active', 'inactive', 'resolved', 'entered-in-error'] as const;
export type AllergyStatus = (typeof ALLERGY_STATUSES)[number];

export const MAX_SUBSTANCE_TEXT = 200;
export const MAX_REACTION = 500;
export const MAX_OVERRIDE_REASON = 1000;

/**
 * What the patient reacts to: a formulary medicine, free text ("peanuts", "penicillins"), or the recorded statement
 * that they have no known allergies (SNOMED 716186003), which is not the same as nobody having asked.
 */
export type AllergySubstance =
  | { kind: 'medicine'; medicineId: number; name: string }
  | { kind: 'text'; text: string }
  | { kind: 'none_known' };

export interface Allergy {
  id: number;
  patientId: number;
  substance: AllergySubstance;
  type: AllergyType;
  reaction: string | null;
  severity: AllergySeverity | null;
  status: AllergyStatus;
  recordedBy: { userId: number; name: string };
  recordedAt: Date;
}

/** What a clinician may read from a patient's allergy list at a glance: the banner's words. */
export type AllergyStatement =
  | { kind: 'not_asked' }
  | { kind: 'none_known'; recordedAt: Date }
  | { kind: 'allergies'; active: Allergy[] };

export const substanceName = (s: AllergySubstance): string =>
  s.kind === 'medicine' ? s.name : s.kind === 'text' ? s.text : 'No known allergies';

/** The banner's statement from everything recorded: active allergies first, then a standing "no known allergies". */
export function allergyStatement(allergies: readonly Allergy[]): AllergyStatement {
  const active = allergies.filter((a) => a.status === 'active');
  const real = active.filter((a) => a.substance.kind !== 'none_known');
  if (real.length > 0) return { kind: 'allergies', active: real };
  const none = active.find((a) => a.substance.kind === 'none_known');
  return none ? { kind: 'none_known', recordedAt: none.recordedAt } : { kind: 'not_asked' };
}

/** "No known allergies" cannot stand beside an active allergy: recording one while the other is active is a 409. */
export function requireConsistentStatement(active: readonly Allergy[], recording: AllergySubstance): void {
  if (recording.kind === 'none_known' && active.some((a) => a.substance.kind !== 'none_known'))
    throw conflict('allergies_recorded', 'The patient has active allergies; mark them inactive first');
}

/**
 * Medicine classes an allergy to one member of which is an allergy to all (BNF, "Penicillins" and "NSAIDs" cautions;
 * sulfonamide antibacterials). A free-text allergy naming the class or a member, or a formulary allergy to a member,
 * matches every member.
 */
export const CROSS_REACTING_CLASSES: Record<string, readonly string[]> = {
  penicillins: [
    'penicillin',
    'amoxicillin',
    'ampicillin',
    'flucloxacillin',
    'benzylpenicillin',
    'phenoxymethylpenicillin',
    'piperacillin',
    'co-amoxiclav',
    'amoxicillin/clavulanic acid',
  ],
  nsaids: ['ibuprofen', 'diclofenac', 'naproxen', 'aspirin', 'acetylsalicylic acid', 'ketorolac', 'indometacin'],
  sulfonamides: ['sulfamethoxazole', 'co-trimoxazole', 'sulfamethoxazole/trimethoprim', 'sulfadiazine'],
};

const normal = (name: string) => name.trim().toLowerCase();

/** The names a substance stands for: itself, and every member of a class it names or belongs to. */
function namesOf(name: string): Set<string> {
  const own = normal(name);
  const names = new Set([own]);
  for (const [cls, members] of Object.entries(CROSS_REACTING_CLASSES)) {
    const singular = cls.replace(/s$/, '');
    if (own === cls || own === singular || members.includes(own)) for (const m of [cls, ...members]) names.add(m);
  }
  return names;
}

/** The patient's active allergies that prescribing `medicine` would run into. */
export function allergiesTo(
  medicine: Pick<FormularyEntry, 'id' | 'genericName'>,
  allergies: readonly Allergy[],
): Allergy[] {
  const medicineNames = namesOf(medicine.genericName);
  return allergies.filter((a) => {
    if (a.status !== 'active') return false;
    if (a.substance.kind === 'medicine')
      return a.substance.medicineId === medicine.id || [...namesOf(a.substance.name)].some((n) => medicineNames.has(n));
    if (a.substance.kind === 'text') return [...namesOf(a.substance.text)].some((n) => medicineNames.has(n));
    return false;
  });
}

/** An allergy overridden on an order: which allergies, and the prescriber's reason, shown on the order. */
export interface AllergyOverride {
  reason: string;
  allergies: string[];
}

/**
 * The allergy check: prescribing or ordering a medicine the patient is recorded allergic to is a 409
 * `allergy_conflict` naming each allergy, unless the doctor gives a reason to override; the override is then
 * returned, for the order and its audit row. A reason given where no allergy applies is not kept.
 */
export function checkAllergies(
  medicine: Pick<FormularyEntry, 'id' | 'genericName'>,
  allergies: readonly Allergy[],
  overrideReason: string | undefined,
): AllergyOverride | null {
  const hits = allergiesTo(medicine, allergies);
  if (hits.length === 0) return null;
  const named = hits.map((a) => allergyInWords(a));
  const reason = overrideReason?.trim() ?? '';
  if (reason === '') {
    throw conflict(
      'allergy_conflict',
      `The patient is allergic to ${named.join('; ')}. Give a reason to prescribe ${medicine.genericName} anyway.`,
      { allergy_override_reason: [`is required to prescribe despite: ${named.join('; ')}`] },
    );
  }
  if (reason.length > MAX_OVERRIDE_REASON)
    throw invalid({ allergy_override_reason: [`must be at most ${MAX_OVERRIDE_REASON} characters`] });
  return { reason, allergies: named };
}

/** "Penicillin (severe: anaphylaxis)". */
export function allergyInWords(a: Pick<Allergy, 'substance' | 'severity' | 'reaction'>): string {
  const detail = [a.severity, a.reaction].filter((x): x is string => x !== null && x !== '').join(': ');
  return detail ? `${substanceName(a.substance)} (${detail})` : substanceName(a.substance);
}
