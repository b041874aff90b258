import type { ContactPoint, Meta, Organization, Reference } from '@medplum/fhirtypes';

/** Where the FHIR API lives and who answers: every URL and Medora code system a resource names starts at `base`. */
export interface FhirContext {
  /** `<origin>/fhir/R4`, from PUBLIC_URL when set. */
  base: string;
  clinic: { name: string; address: string; phone: string; timeZone: string };
  /** Whether the reader may see clinical content (a diagnosis, a disease); reception may not. */
  clinical: boolean;
}

/** A row's own id, change time and version counter (migration 0019 keeps them). */
export interface Versioned {
  id: number;
  updatedAt: Date;
  version: number;
}

export interface Named {
  id: number;
  name: string;
}

export const meta = (row: Pick<Versioned, 'updatedAt'> & { version?: number }): Meta =>
  row.version === undefined
    ? { lastUpdated: row.updatedAt.toISOString() }
    : { versionId: String(row.version), lastUpdated: row.updatedAt.toISOString() };

export const ref = (type: string, id: number | string, display?: string): Reference<never> =>
  display === undefined ? { reference: `${type}/${id}` } : { reference: `${type}/${id}`, display };

/** Medora's own code systems and identifier systems, each declared once in code-systems.ts. */
export const medoraSystem = (ctx: Pick<FhirContext, 'base'>, id: string) => `${ctx.base}/CodeSystem/${id}`;
export const identifierSystem = (ctx: Pick<FhirContext, 'base'>, id: string) => `${ctx.base}/NamingSystem/${id}`;

/** A person's phone and e-mail as ContactPoints; empty ones are left out. */
export function telecom(phone: string, email: string | null): ContactPoint[] | undefined {
  const points: ContactPoint[] = [];
  if (phone) points.push({ system: 'phone', value: phone });
  if (email) points.push({ system: 'email', value: email });
  return points.length ? points : undefined;
}

/** The clinic itself, the one Organization. */
export const CLINIC_ID = 'clinic';
export const clinicRef = (ctx: FhirContext): Reference<Organization> => ({
  reference: `Organization/${CLINIC_ID}`,
  display: ctx.clinic.name,
});
