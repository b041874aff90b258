import { useCallback, useState, type FormEvent } from 'react';
import type { AuditEntryJson } from '../../../domain/audit/use-cases.ts';
import type { FieldErrors } from '../../../domain/shared/errors.ts';
import { ApiError, apiDownload, fetchList, type ListQuery } from '../../api.ts';
import { Alert, failure } from '../../components/alert.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Field } from '../../components/field.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { endpoints } from '../../paths.ts';

interface Filters {
  user_id: string;
  patient_id: string;
  action: string;
  from: string;
  to: string;
}

const NO_FILTERS: Filters = { user_id: '', patient_id: '', action: '', from: '', to: '' };

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
  'email_changed',
  'mfa_enabled',
  'mfa_disabled',
  'mfa_reset',
];

const FIELDS: { name: keyof Filters; label: string; type: 'number' | 'text' | 'date' }[] = [
  { name: 'user_id', label: 'User ID', type: 'number' },
  { name: 'patient_id', label: 'Patient ID', type: 'number' },
  { name: 'action', label: 'Action', type: 'text' },
  { name: 'from', label: 'From', type: 'date' },
  { name: 'to', label: 'To', type: 'date' },
];

const columns: Column<AuditEntryJson>[] = [
  { header: 'When', cell: (e) => new Date(e.at).toLocaleString() },
  { header: 'User', text: (e) => (e.actor ? `${e.actor.name ?? 'deleted user'} (#${e.actor.id}, ${e.actor.role ?? 'no role'})` : 'anonymous') },
  { header: 'Action', cell: (e) => e.action },
  { header: 'Subject', cell: (e) => (e.entity_id ? `${e.entity} #${e.entity_id}` : e.entity), priority: 2 },
  { header: 'Patient', cell: (e) => (e.patient_id === null ? '' : `#${e.patient_id}`), priority: 3 },
  { header: 'Details', text: (e) => (e.details ? JSON.stringify(e.details) : ''), priority: 2 },
];

/** The audit trail, newest first, filtered; the same filters export it as CSV. */
export default function AdminAuditPage() {
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [applied, setApplied] = useState<Filters>(NO_FILTERS);
  const [reloadKey, setReloadKey] = useState(0);
  const [errors, setErrors] = useState<FieldErrors>({});
  const { alert, setAlert, dismiss } = useAlert();

  const showProblem = useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 422) setErrors(error.errors);
      else setAlert(failure('The audit trail could not be loaded. Please try again.'));
    },
    [setAlert],
  );

  const load = useCallback(
    (query: ListQuery, signal: AbortSignal) =>
      fetchList<AuditEntryJson>(endpoints.admin.audit, 'entries', { ...query, ...applied }, signal).then(
        (page) => {
          setErrors({});
          return page;
        },
        (error: unknown) => {
          if (!signal.aborted) showProblem(error);
          throw error;
        },
      ),
    [applied, showProblem],
  );

  const showDraft = () => {
    dismiss();
    setApplied(draft);
    setReloadKey((key) => key + 1);
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    showDraft();
  };

  // The file holds what the table shows: the filters as typed apply to both.
  const download = async () => {
    showDraft();
    try {
      const { blob, filename } = await apiDownload(endpoints.admin.auditCsv, { ...draft });
      setErrors({});
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = filename;
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (error) {
      showProblem(error);
    }
  };

  return (
    <>
      <PageHeader title="Audit trail" />
      <Alert message={alert} onDismiss={dismiss} />
      <form className="audit-filters" aria-label="Filter the audit trail" onSubmit={apply}>
        {FIELDS.map(({ name, label, type }) => (
          <Field key={name} label={label} errors={errors[name]}>
            {(control) => (
              <input
                {...control}
                name={name}
                type={type}
                min={type === 'number' ? 1 : undefined}
                list={name === 'action' ? 'audit-actions' : undefined}
                value={draft[name]}
                onChange={(event) => setDraft({ ...draft, [name]: event.target.value })}
              />
            )}
          </Field>
        ))}
        <datalist id="audit-actions">
          {ACTIONS.map((action) => (
            <option key={action} value={action} />
          ))}
        </datalist>
        <div className="audit-filter-actions">
          <button type="submit" className="button button-primary">
            Apply filters
          </button>
          <button type="button" className="button" onClick={download}>
            Download CSV
          </button>
        </div>
      </form>
      <DataTable
        label="Audit trail"
        columns={columns}
        load={load}
        rowKey={(e) => e.id}
        pageSize={20}
        reloadKey={reloadKey}
        filterKey={JSON.stringify(applied)}
        searchable={false}
        emptyText="No audit entries match."
      />
    </>
  );
}
