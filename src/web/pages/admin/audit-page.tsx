import type { AuditEntryJson } from '../../../domain/audit/audit-shapes.ts';
import { listAt } from '../../api.ts';
import { Alert } from '../../components/alert.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Field } from '../../components/field.tsx';
import { FilterForm, useFilteredList } from '../../components/list-filters.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { endpoints } from '../../paths.ts';
import { formatDateTime } from '../../format.ts';

// Offered as suggestions; the server accepts any action the trail holds.
const ACTIONS = [
  'read_records',
  'read_receipt',
  'list',
  'refused',
  'export',
  'create',
  'update',
  'delete',
  'book',
  'cancel',
  'pay',
  'register',
  'login',
  'login_failed',
  'logout',
  'logout_everywhere',
  'password_changed',
  'password_reset_issued',
  'password_reset',
  'email_change_requested',
  'email_changed',
  'email_verified',
  'register_taken_email',
  'mfa_enabled',
  'mfa_disabled',
  'mfa_reset',
];

const FIELDS: { name: string; label: string; type: 'number' | 'text' | 'date' }[] = [
  { name: 'user_id', label: 'User ID', type: 'number' },
  { name: 'patient_id', label: 'Patient ID', type: 'number' },
  { name: 'action', label: 'Action', type: 'text' },
  { name: 'from', label: 'From', type: 'date' },
  { name: 'to', label: 'To', type: 'date' },
];

const columns: Column<AuditEntryJson>[] = [
  { header: 'When', cell: (e) => formatDateTime(e.at) },
  {
    header: 'User',
    text: (e) =>
      e.actor ? `${e.actor.name ?? 'deleted user'} (#${e.actor.id}, ${e.actor.role ?? 'no role'})` : 'anonymous',
  },
  { header: 'Action', cell: (e) => e.action },
  { header: 'Subject', cell: (e) => (e.entity_id ? `${e.entity} #${e.entity_id}` : e.entity), priority: 2 },
  { header: 'Patient', cell: (e) => (e.patient_id === null ? '' : `#${e.patient_id}`), priority: 3 },
  { header: 'Details', text: (e) => (e.details ? JSON.stringify(e.details) : ''), priority: 2 },
];

const loadEntries = listAt<AuditEntryJson>(endpoints.admin.audit, 'entries');
const NAMES = FIELDS.map((field) => field.name);

/** The audit trail, newest first, filtered; the same filters export it as CSV. */
export default function AdminAuditPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const list = useFilteredList({
    names: NAMES,
    load: loadEntries,
    csvPath: endpoints.admin.auditCsv,
    what: 'audit trail',
    setAlert,
  });

  return (
    <>
      <PageHeader title="Audit trail" />
      <Alert message={alert} onDismiss={dismiss} />
      <FilterForm label="Filter the audit trail" list={list}>
        {(draft, set) => (
          <>
            {FIELDS.map(({ name, label, type }) => (
              <Field key={name} label={label} errors={list.errors[name]}>
                {(control) => (
                  <input
                    {...control}
                    name={name}
                    type={type}
                    min={type === 'number' ? 1 : undefined}
                    list={name === 'action' ? 'audit-actions' : undefined}
                    value={draft[name]}
                    onChange={(event) => set(name, event.target.value)}
                  />
                )}
              </Field>
            ))}
            <datalist id="audit-actions">
              {ACTIONS.map((action) => (
                <option key={action} value={action} />
              ))}
            </datalist>
          </>
        )}
      </FilterForm>
      <DataTable
        label="Audit trail"
        columns={columns}
        load={list.load}
        rowKey={(e) => e.id}
        pageSize={20}
        filterKey={list.filterKey}
        searchable={false}
        emptyText="No audit entries match."
      />
    </>
  );
}
