import { invalid } from '../shared/errors.ts';
import type { Units } from '../lab/units.ts';

/** What a medicine comes as; the formulary's forms, as the UI and the import name them. */
export const DOSE_FORMS = [
  'tablet',
  'capsule',
  'syrup',
  'suspension',
  'solution',
  'injection',
  'infusion',
  'cream',
  'ointment',
  'gel',
  'drops',
  'inhaler',
  'suppository',
  'patch',
  'powder',
] as const;
export type DoseForm = (typeof DOSE_FORMS)[number];

/** How a medicine is given: SNOMED CT route codes (FHIR's route-codes value set), as MedicationRequest carries them. */
export const ROUTES = {
  oral: { code: '26643006', display: 'Oral route' },
  iv: { code: '47625008', display: 'Intravenous route' },
  im: { code: '78421000', display: 'Intramuscular route' },
  sc: { code: '34206005', display: 'Subcutaneous route' },
  topical: { code: '6064005', display: 'Topical route' },
  inhaled: { code: '447694001', display: 'Respiratory tract route' },
  rectal: { code: '37161004', display: 'Rectal route' },
  sublingual: { code: '37839007', display: 'Sublingual route' },
  ophthalmic: { code: '54485002', display: 'Ophthalmic route' },
  otic: { code: '10547007', display: 'Otic route' },
  nasal: { code: '46713006', display: 'Nasal route' },
  transdermal: { code: '45890007', display: 'Transdermal route' },
  vaginal: { code: '16857009', display: 'Vaginal route' },
} as const;
export type Route = keyof typeof ROUTES;
export const ROUTE_NAMES = Object.keys(ROUTES) as Route[];
export const isRoute = (value: string): value is Route => Object.hasOwn(ROUTES, value);

export const MAX_GENERIC_NAME = 120;
export const MAX_STRENGTH = 60;

/** A medicine the clinic stocks, by generic name (no proprietary drug database): what is prescribed and given. */
export interface FormularyEntry {
  id: number;
  genericName: string;
  form: DoseForm;
  /** As the pack says it: "500 mg", "125 mg/5 mL". */
  strength: string;
  routes: Route[];
  /** The UCUM unit a dose of it is written in: `mg`, `mL`, `[iU]`, `{puff}`, `{tablet}`. */
  doseUnit: string;
  /** Per dose given or dispensed; null when the clinic does not charge for it. */
  priceCents: number | null;
  active: boolean;
}

export type NewFormularyEntry = Omit<FormularyEntry, 'id' | 'active'>;

/**
 * An entry as the admin or the import gives it, checked: the routes are known and at least one, the dose unit a
 * UCUM code (422 naming `routes` or `dose_unit`).
 */
export function formularyEntryOf(units: Units, entry: NewFormularyEntry): NewFormularyEntry {
  const routes = [...new Set(entry.routes)];
  const errors: Record<string, string[]> = {};
  if (routes.length === 0) errors.routes = ['must name at least one route'];
  const unknown = routes.filter((r) => !isRoute(r));
  if (unknown.length > 0) errors.routes = [`${unknown.join(', ')} is not a route (${ROUTE_NAMES.join(', ')})`];
  if (!units.isValid(entry.doseUnit)) errors.dose_unit = [`${entry.doseUnit} is not a UCUM unit`];
  if (Object.keys(errors).length > 0) throw invalid(errors);
  return { ...entry, routes };
}

/** How the medicine reads in a list or on a prescription: "Amoxicillin 500 mg capsule". */
export const medicineLabel = (m: Pick<FormularyEntry, 'genericName' | 'strength' | 'form'>): string =>
  `${m.genericName} ${m.strength} ${m.form}`;
