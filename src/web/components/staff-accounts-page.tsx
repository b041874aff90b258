import { useState } from 'react';
import { apiDelete, apiPost, listAt } from '../api.ts';
import { Alert, success } from './alert.tsx';
import { useConfirm } from './confirm.tsx';
import { DataTable, type Column } from './data-table.tsx';
import { AccountFields } from './account-fields.tsx';
import { PageHeader } from './page-header.tsx';
import type { RowAction } from './row-actions.tsx';
import { SignInHelpDialog } from './sign-in-help.tsx';
import { Field } from './field.tsx';
import { NamedSelect } from './named-select.tsx';
import { StatusBadge } from './status-badge.tsx';
import { useAllRows } from './use-all-rows.ts';
import { failureFor, useAlert } from './use-alert.ts';
import { useCreateForm } from './use-create-form.ts';
import type { StaffJson } from '../../domain/auth/auth-shapes.ts';
import type { Department } from '../../domain/catalogue/catalogue-shapes.ts';
import { endpoints } from '../paths.ts';

const EMPTY = { name: '', email: '', password: '', department_id: '' };

/** Which staff a page keeps: their title, nouns, list key and endpoints. */
export interface StaffKind {
  title: string;
  /** Lower case, singular: "receptionist". */
  noun: string;
  /** Capitalised, singular and plural: "Receptionist", "Receptionists". */
  one: string;
  many: string;
  listKey: string;
  list: string;
  item: (id: number) => string;
  /** The form's id. */
  formId: string;
  /** Each belongs to a department (nurses: the ward whose beds they work). */
  inDepartment?: boolean;
}

/** Staff accounts of one kind: an admin adds them and deactivates those who leave. */
export function StaffAccountsPage({ kind }: { kind: StaffKind }) {
  const [load] = useState(() => listAt<StaffJson>(kind.list, kind.listKey));
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [showForm, setShowForm] = useState(false);
  const [values, setValues] = useState(EMPTY);
  const [helpFor, setHelpFor] = useState<StaffJson | null>(null);
  const confirm = useConfirm();
  const departments = useAllRows<Department>(endpoints.admin.departments, 'departments', kind.inDepartment === true);
  const set = (key: keyof typeof EMPTY, value: string) => setValues((was) => ({ ...was, [key]: value }));

  const { errors, busy, create } = useCreateForm({
    noun: kind.noun,
    createdText: `${kind.one} created successfully`,
    send: () => {
      const { department_id, ...account } = values;
      return apiPost(kind.list, kind.inDepartment ? { ...account, department_id: Number(department_id) } : account);
    },
    setAlert,
    onCreated: () => {
      setValues(EMPTY);
      setReloadKey((key) => key + 1);
    },
  });

  const deactivate = async (row: StaffJson) => {
    const question = `Deactivate ${row.name}? They are signed out everywhere and can no longer sign in.`;
    if (!(await confirm({ title: `Deactivate ${kind.noun}`, message: question, confirmLabel: 'Deactivate' }))) return;
    try {
      await apiDelete(kind.item(row.id));
      setAlert(success(`${row.name} was deactivated`));
      setReloadKey((key) => key + 1);
    } catch (error) {
      console.error(`${kind.noun} deactivate failed`, error);
      setAlert(failureFor(error, `Failed to deactivate the ${kind.noun}`));
    }
  };

  const columns: Column<StaffJson>[] = [
    { header: 'ID', cell: (r) => r.id, priority: 2 },
    { header: 'Name', text: (r) => r.name },
    { header: 'Email', text: (r) => r.email, priority: 2 },
    ...(kind.inDepartment ? [{ header: 'Department', text: (r: StaffJson) => r.department?.name ?? '' }] : []),
    { header: 'Status', cell: (r) => <StatusBadge status={r.active ? 'active' : 'inactive'} /> },
  ];
  const actions = (r: StaffJson): RowAction[] =>
    r.active
      ? [
          { label: 'Sign-in help', name: `Sign-in help for ${r.name}`, onSelect: () => setHelpFor(r) },
          { label: 'Deactivate', name: `Deactivate ${r.name}`, onSelect: () => void deactivate(r), tone: 'danger' },
        ]
      : [];

  return (
    <>
      <PageHeader title={kind.title}>
        <button
          type="button"
          className="button button-primary"
          aria-expanded={showForm}
          aria-controls={kind.formId}
          onClick={() => setShowForm(!showForm)}
        >
          {showForm ? 'Hide Form' : `Add ${kind.one}`}
        </button>
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      <form
        id={kind.formId}
        className="form card form-grid"
        hidden={!showForm}
        onSubmit={create}
        aria-label={`New ${kind.noun}`}
      >
        <AccountFields values={values} errors={errors} onChange={set} />
        {kind.inDepartment && (
          <Field label="Department" errors={errors.department_id}>
            {(control) => (
              <NamedSelect
                control={control}
                placeholder="Select department"
                options={departments}
                value={values.department_id}
                onChange={(id) => set('department_id', id)}
                required
              />
            )}
          </Field>
        )}
        <button type="submit" className="button button-primary" disabled={busy}>
          Create {kind.one}
        </button>
      </form>
      <DataTable
        label={kind.many}
        columns={columns}
        load={load}
        rowKey={(r) => r.id}
        emptyText={`No ${kind.many.toLowerCase()} yet.`}
        reloadKey={reloadKey}
        actions={actions}
      />
      {helpFor && <SignInHelpDialog name={helpFor.name} email={helpFor.email} staff onClose={() => setHelpFor(null)} />}
    </>
  );
}
