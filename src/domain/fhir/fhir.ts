import type { ContactPoint, Meta, Organization, Reference } from '@medplum/fhirtypes';

/** Where the FHIR API lives and who answers: every URL and Medora code system a resource names starts at `base`. */
export interface FhirContext {
  /** `<origin>/fhir/R4`, from PUBLIC_URL when set: where links (a bundle's entries, its pages) point. */
  base: string;
  /** Where Medora's identifier and code systems are named: see `fhirSystemsBase`. */
  systems: string;
  clinic: { name: string; address: string; phone: string; timeZone: string };
  /** Whether the reader may see clinical content (a diagnosis, a disease); reception may not. */
  clinical: boolean;
  /** Whether the reader is the clinic's staff rather than the patient: what colleagues wrote for each other (an allergy override's reason) is theirs. */
  staff?: boolean;
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

/**
 * The base of Medora's identifier and code systems: PUBLIC_URL's FHIR base when it is set, else a fixed URN. Never
 * the address a request came by: a system names what a value means, so one patient's identifier keeps one system
 * however the server was reached (a forged Host, another port, the CLI's export).
 */
export const UNSET_PUBLIC_URL_SYSTEMS = 'urn:medora:fhir';
export const fhirSystemsBase = (publicUrl: string | undefined, fhirPath: string) =>
  publicUrl ? `${publicUrl}${fhirPath}` : UNSET_PUBLIC_URL_SYSTEMS;

/** Medora's own code systems and identifier systems, each declared once in code-systems.ts. */
export const medoraSystem = (ctx: Pick<FhirContext, 'systems'>, id: string) => `${ctx.systems}/CodeSystem/${id}`;
export const identifierSystem = (ctx: Pick<FhirContext, 'systems'>, id: string) => `${ctx.systems}/NamingSystem/${id}`;

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
