import { RoleShape } from '../shared/shared-shapes.ts';
import {
  anyObject,
  component,
  date,
  dateTime,
  id,
  integer,
  nullable,
  object,
  queryOf,
  ref,
  string,
  type Static,
} from '../shared/wire-schema.ts';

// The audit trail's query and answer, written once (docs/architecture.md "The wire contract").

/** The trail's filters; the use case checks `action` against its pattern, saying what an action looks like. */
export const AuditFilterQuery = queryOf({
  user_id: id('Only what this user did'),
  patient_id: id("Only entries about this patient's data"),
  action: string({
    maxLength: 50,
    pattern: '^[a-z_]+$',
    description: 'One action, such as `read_records`, `login_failed`, `export`',
  }),
  from: date('From this clinic date (included)'),
  to: date('To this clinic date (included); before `from` → 422 naming `to`'),
});

export const AuditEntryShape = component(
  'AuditEntry',
  object({
    id: integer(),
    at: dateTime(),
    actor: nullable(
      object({
        id: integer(),
        name: nullable(string({ description: "The account's current name; null once it is gone" })),
        role: nullable(ref(RoleShape)),
      }),
    ),
    action: string(),
    entity: string({ description: 'What was acted on: user, patient, appointment, medical_record, billing, …' }),
    entity_id: nullable(string()),
    patient_id: nullable(integer()),
    request_id: nullable(string()),
    details: nullable(
      anyObject("What else is known: the filters of a list, the e-mail of a failed sign-in, a payment's amount"),
    ),
  }),
);
export type AuditEntryJson = Static<typeof AuditEntryShape>;
