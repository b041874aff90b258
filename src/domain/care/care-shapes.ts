import { NamedShape } from '../shared/shared-shapes.ts';
import {
  component,
  dateTime,
  id,
  nullable,
  object,
  oneOfValues,
  ref,
  type Static,
  string,
  text,
} from '../shared/wire-schema.ts';
import { MAX_BREAK_GLASS_REASON, OPENING_ROLES, RECORD_OPENINGS } from './care.ts';

// The care team's requests and answers, written once (docs/architecture.md "The wire contract").

export const BreakGlassRequestShape = object({ reason: text(MAX_BREAK_GLASS_REASON) });

export const BreakGlassAccessShape = component(
  'BreakGlassAccess',
  object({
    id: id(),
    doctor: ref(NamedShape),
    patient: ref(NamedShape),
    reason: string({ minLength: 1, maxLength: MAX_BREAK_GLASS_REASON }),
    opened_at: dateTime(),
    expires_at: dateTime("The end of the clinic's day it was opened on"),
  }),
);
export type BreakGlassJson = Static<typeof BreakGlassAccessShape>;

export const RecordOpeningShape = component(
  'RecordOpening',
  object({
    id: id(),
    at: dateTime(),
    by: object({ name: nullable(string()), role: oneOfValues(OPENING_ROLES) }),
    what: string({ description: 'What was opened, in words for the patient' }),
    action: oneOfValues(RECORD_OPENINGS),
    reason: nullable(
      string({ description: 'The reason given to break the glass, when the record was opened through it' }),
    ),
  }),
);
export type RecordOpeningJson = Static<typeof RecordOpeningShape>;
