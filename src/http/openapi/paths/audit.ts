import type { ModulePaths } from '../module-paths.ts';
import { pageQuery } from '../components.ts';
import { AuditEntryShape, AuditFilterQuery } from '../../../domain/audit/audit-shapes.ts';
import { listOf, propertiesOf, ref, string } from '../../../domain/shared/wire-schema.ts';

/** The operations of src/http/routes/audit.ts. */
export const auditPaths: ModulePaths = {
  tag: 'Audit',
  description:
    'The audit trail, for admins: who read or changed what (sign-ins and failed ones, reads of records, lists and exports, every ' +
    'change), newest first, filtered by user, patient, action and clinic dates. Reading or exporting the trail is itself audited.',
  schemas: {
    AuditEntry: AuditEntryShape,
  },
  operations: {
    'GET /api/admin/audit': {
      summary: 'Read the audit trail',
      description: 'Entries newest first, filtered; a bad filter is 422 naming it.',
      access: 'admin',
      query: { page: pageQuery.page, per_page: pageQuery.per_page, ...propertiesOf(AuditFilterQuery) },
      answers: { 200: listOf('entries', ref('AuditEntry')) },
    },
    'GET /api/admin/audit.csv': {
      summary: 'Export the audit trail as CSV',
      description:
        'Every entry the filters select, newest first, as an RFC 4180 CSV attachment (columns id, at, actor_id, actor_name, ' +
        'actor_role, action, entity, entity_id, patient_id, request_id, details as JSON). At most 100,000 rows: more → 422 naming ' +
        '`from`. The export is audited with its filters and row count.',
      access: 'admin',
      query: AuditFilterQuery,
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
