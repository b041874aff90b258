import { parseCents } from '../shared/money.ts';
import { readInput } from '../shared/read-fields.ts';
import type { Units } from '../lab/units.ts';
import { type NewFormularyEntry, type Route, formularyEntryOf } from './formulary.ts';
import { FormularyRequestShape } from './medicines-shapes.ts';

/** An admin's or an import row's formulary entry, read and checked (known routes, a UCUM dose unit). */
export function formularyEntryFrom(units: Units, body: unknown) {
  const input = readInput(FormularyRequestShape, body);
  const entry: NewFormularyEntry = {
    genericName: input.generic_name,
    form: input.form,
    strength: input.strength,
    routes: input.routes as Route[],
    doseUnit: input.dose_unit,
    priceCents: input.price === undefined ? null : (parseCents(input.price) ?? null),
  };
  return { entry: formularyEntryOf(units, entry), active: input.active };
}
