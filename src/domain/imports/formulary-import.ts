import { formularyEntryFrom } from '../medicines/formulary-request.ts';
import type { NewFormularyEntry } from '../medicines/formulary.ts';
import type { MedicinesDeps } from '../medicines/ports.ts';
import { type Actor, requireAdmin } from '../shared/actor.ts';
import { parseImport, type ImportFormat } from './parse.ts';
import { RowProblems } from './use-cases.ts';

// The formulary's import (`medora formulary import`): medicines added or updated through the formulary's own rules.

export const FORMULARY_COLUMNS = ['generic_name', 'form', 'strength', 'routes', 'dose_unit', 'price'] as const;

/** A file's row as the formulary's request: its routes separated by ";", "|" or spaces; no price left out. */
const formularyRowBody = ({ routes, ...fields }: Record<string, string>) => ({
  ...fields,
  ...(routes !== undefined ? { routes: routes.split(/[;|\s]+/).filter(Boolean) } : {}),
});

/**
 * Imports a formulary file (CSV or JSON, the columns of `FORMULARY_COLUMNS`): each row added or, when the same
 * generic name, form and strength is listed, its routes, unit and price updated. Every problem of every row is
 * reported by its line and nothing is written unless all rows are good; the import is audited with its counts.
 */
export async function importFormulary(
  deps: MedicinesDeps,
  file: { text: string; format: ImportFormat },
  actor: Actor,
): Promise<{ created: number; updated: number }> {
  requireAdmin(actor);
  const problems = new RowProblems();
  const firstSeen = new Map<string, string>();
  const entries: NewFormularyEntry[] = [];
  for (const row of parseImport(file.text, file.format, FORMULARY_COLUMNS)) {
    try {
      const { entry } = formularyEntryFrom(deps.units, formularyRowBody(row.fields));
      const key = `${entry.genericName.toLowerCase()}|${entry.form}|${entry.strength}`;
      const first = firstSeen.get(key);
      if (first) problems.add(row.where, 'generic_name', `repeats the medicine of ${first}`);
      else firstSeen.set(key, row.where);
      entries.push(entry);
    } catch (error) {
      problems.addRefusal(row.where, error);
    }
  }
  problems.throwIfAny();
  return deps.transaction(async (tx) => {
    const counts = await tx.formulary.upsert(entries, tx.clock.now());
    await tx.audit.record({
      actor,
      action: 'import',
      entity: 'formulary',
      requestId: actor.requestId,
      details: counts,
    });
    return counts;
  });
}
