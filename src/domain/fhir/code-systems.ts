import type { CodeSystem } from '@medplum/fhirtypes';
import { medoraSystem, type FhirContext } from './fhir.ts';
import { ID_PARAM, numericId, type ResourceDef, type TokenValue } from './resource-def.ts';

/**
 * Medora's own code systems, each declared here once: where no standard one fits, a code is a row of Medora's
 * catalogue (its id) or one of Medora's words, under the clinic's PUBLIC_URL.
 */
export const MEDORA_CODE_SYSTEMS = {
  disease: { title: 'Medora diseases', description: "The clinic's catalogue of diseases; a code is the disease's id." },
  specialization: {
    title: 'Medora specializations',
    description: "The clinic's catalogue of specializations; a code is the specialization's id.",
  },
  'lab-test': {
    title: 'Medora lab tests',
    description: "The clinic's own codes for the tests and imaging procedures LOINC has no code for.",
  },
  nursing: {
    title: 'Medora nursing observations',
    description: "The ward's words LOINC has no code for: NEWS2's parameter scores and risk, fluid intake and output.",
  },
  'audit-action': {
    title: 'Medora audit actions',
    description: 'What an audited request did (read, list, create, refused …), as the audit trail records it.',
  },
} as const;
export type MedoraCodeSystem = keyof typeof MEDORA_CODE_SYSTEMS;

export const codeSystemUrl = (ctx: Pick<FhirContext, 'systems'>, id: MedoraCodeSystem) => medoraSystem(ctx, id);

/** The declaration of one of Medora's code systems; its codes are data, so the resource lists none. */
export const codeSystemResource = (ctx: Pick<FhirContext, 'systems'>, id: MedoraCodeSystem): CodeSystem => ({
  resourceType: 'CodeSystem',
  id,
  url: codeSystemUrl(ctx, id),
  name: id.replace(/(^|-)(\w)/g, (_, _dash, c: string) => c.toUpperCase()),
  title: MEDORA_CODE_SYSTEMS[id].title,
  status: 'active',
  description: MEDORA_CODE_SYSTEMS[id].description,
  content: 'not-present',
});

/** A token naming a catalogue row by its code in Medora's system `id` (or in any system): the row's id. */
export const catalogueToken =
  (id: 'disease' | 'specialization') =>
  (value: TokenValue, ctx: Pick<FhirContext, 'systems'>): string[] =>
    (value.system === undefined || value.system === codeSystemUrl(ctx, id)) && numericId(value.code)
      ? [value.code]
      : [];

const SYSTEM_IDS = Object.keys(MEDORA_CODE_SYSTEMS) as MedoraCodeSystem[];

export const codeSystemResourceDef: ResourceDef<MedoraCodeSystem, CodeSystem> = {
  type: 'CodeSystem',
  params: [ID_PARAM],
  isId: (id) => (SYSTEM_IDS as string[]).includes(id),
  toFhir: (id, ctx) => codeSystemResource(ctx, id),
  configured: () => SYSTEM_IDS.map((id) => [id, id] as const),
};
