import type { ModulePaths } from '../module-paths.ts';
import { pageQuery } from '../components.ts';
import { date, dateTime, id, integer, listOf, nullable, object, ref, string } from '../schema.ts';

/** The trail's filters, as src/domain/audit/use-cases.ts readFilter reads them. */
const filters = {
  user_id: id('Only what this user did'),
  patient_id: id("Only entries about this patient's data"),
  action: string({
    maxLength: 50,
    pattern: '^[a-z_]+$',
    description: 'One action, such as `read_records`, `login_failed`, `export`',
  }),
  from: date('From this clinic date (included)'),
  to: date('To this clinic date (included); before `from` → 422 naming `to`'),
};

/** The operations of src/http/routes/audit.ts. */
export const auditPaths: ModulePaths = {
  tag: 'Audit',
  description:
    'The audit trail, for admins: who read or changed what (sign-ins and failed ones, reads of records, lists and exports, every ' +
    'change), newest first, filtered by user, patient, action and clinic dates. Reading or exporting the trail is itself audited.',
  schemas: {
    AuditEntry: object({
      id: integer(),
      at: dateTime(),
      actor: nullable(
        object({
          id: integer(),
          name: nullable(string({ description: "The account's current name; null once it is gone" })),
          role: nullable(ref('Role')),
        }),
      ),
      action: string(),
      entity: string({ description: 'What was acted on: user, patient, appointment, medical_record, billing, …' }),
      entity_id: nullable(string()),
      patient_id: nullable(integer()),
      request_id: nullable(string()),
      details: nullable({
        type: 'object',
        description: "What else is known: the filters of a list, the e-mail of a failed sign-in, a payment's amount",
      }),
    }),
  },
  operations: {
    'GET /api/admin/audit': {
      summary: 'Read the audit trail',
      description: 'Entries newest first, filtered; a bad filter is 422 naming it.',
      access: 'admin',
      query: { page: pageQuery.page, per_page: pageQuery.per_page, ...filters },
      answers: { 200: listOf('entries', ref('AuditEntry')) },
    },
    'GET /api/admin/audit.csv': {
      summary: 'Export the audit trail as CSV',
      description:
        'Every entry the filters select, newest first, as an RFC 4180 CSV attachment (columns id, at, actor_id, actor_name, ' +
        'actor_role, action, entity, entity_id, patient_id, request_id, details as JSON). At most 100,000 rows: more → 422 naming ' +
        '`from`. The export is audited with its filters and row count.',
      access: 'admin',
      query: filters,
      answers: {
        200: {
          description: 'The CSV file',
          content: { 'text/csv': string() },
          headers: { 'Content-Disposition': string({ description: 'attachment; filename="medora-audit-<date>.csv"' }) },
        },
      },
    },
  },
};
