/** The desk's check, before registering a walk-in, for a chart the patient may already have. */
import { requireDesk, type Actor } from '../shared/actor.ts';
import { readFields } from '../shared/read-fields.ts';
import { Validator, asRecord } from '../shared/validate.ts';
import { DuplicatesQuery, type PossibleDuplicatesJson } from './patients-shapes.ts';
import type { DuplicateQuery, PatientsDeps } from './ports.ts';

/** Shorter numbers ("0", "123") are placeholders the desk types when there is none; they identify nobody. */
const MIN_PHONE_DIGITS = 6;
const MOST_MATCHES = 10;

/**
 * Patients who may be the one about to be registered: the same name and birthdate, or the same phone (its
 * digits). Audited as a read of the patient list.
 */
export async function possibleDuplicates(
  deps: PatientsDeps,
  query: Record<string, unknown>,
  actor: Actor,
): Promise<PossibleDuplicatesJson> {
  requireDesk(actor);
  const v = new Validator(asRecord(query));
  const { name, birthdate, phone = '' } = readFields(v, DuplicatesQuery);
  const phoneDigits = phone.replace(/\D/g, '');
  const wanted: DuplicateQuery = {
    nameAndBirthdate: name && birthdate ? { name, birthdate } : undefined,
    phoneDigits: phoneDigits.length >= MIN_PHONE_DIGITS ? phoneDigits : undefined,
  };
  if (!v.failed('phone') && !wanted.nameAndBirthdate && !wanted.phoneDigits) {
    v.fail('phone', `give a phone of at least ${MIN_PHONE_DIGITS} digits, or a name and a birthdate`);
  }
  v.done();
  const patients = await deps.patients.possibleDuplicates(wanted, MOST_MATCHES);
  await deps.audit.record({
    actor,
    action: 'list',
    entity: 'patient',
    requestId: actor.requestId,
    details: { duplicates_of_new_patient: true },
  });
  return { patients };
}
