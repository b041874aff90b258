import { useState } from 'react';
import type { StaffJson } from '../../../domain/auth/staff-use-cases.ts';
import { apiDelete, apiPost, listAt } from '../../api.ts';
import { Alert, success } from '../../components/alert.tsx';
import { useConfirm } from '../../components/confirm.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { AccountFields } from '../../components/account-fields.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import type { RowAction } from '../../components/row-actions.tsx';
import { SignInHelpDialog } from '../../components/sign-in-help.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { failureFor, useAlert } from '../../components/use-alert.ts';
import { useCreateForm } from '../../components/use-create-form.ts';
import { endpoints } from '../../paths.ts';

const loadReceptionists = listAt<StaffJson>(endpoints.admin.receptionists, 'receptionists');
const EMPTY = { name: '', email: '', password: '' };

/** The front desk's accounts: an admin adds receptionists and deactivates those who leave. */
export default function ReceptionistsPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [showForm, setShowForm] = useState(false);
  const [values, setValues] = useState(EMPTY);
  const [helpFor, setHelpFor] = useState<StaffJson | null>(null);
  const confirm = useConfirm();
  const set = (key: keyof typeof EMPTY, value: string) => setValues((was) => ({ ...was, [key]: value }));

  const { errors, busy, create } = useCreateForm({
    noun: 'receptionist',
    createdText: 'Receptionist created successfully',
    send: () => apiPost(endpoints.admin.receptionists, values),
    setAlert,
    onCreated: () => {
      setValues(EMPTY);
      setReloadKey((key) => key + 1);
    },
  });

  const deactivate = async (row: StaffJson) => {
    const question = `Deactivate ${row.name}? They are signed out everywhere and can no longer sign in.`;
    if (!(await confirm({ title: 'Deactivate receptionist', message: question, confirmLabel: 'Deactivate' }))) return;
    try {
      await apiDelete(endpoints.admin.receptionist(row.id));
      setAlert(success(`${row.name} was deactivated`));
      setReloadKey((key) => key + 1);
    } catch (error) {
      console.error('receptionist deactivate failed', error);
      setAlert(failureFor(error, 'Failed to deactivate the receptionist'));
    }
  };

  const columns: Column<StaffJson>[] = [
    { header: 'ID', cell: (r) => r.id, priority: 2 },
    { header: 'Name', text: (r) => r.name },
    { header: 'Email', text: (r) => r.email, priority: 2 },
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
      <PageHeader title="Reception">
        <button
          type="button"
          className="button button-primary"
          aria-expanded={showForm}
          aria-controls="receptionist-form"
          onClick={() => setShowForm(!showForm)}
        >
          {showForm ? 'Hide Form' : 'Add Receptionist'}
        </button>
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      <form
        id="receptionist-form"
        className="form card form-grid"
        hidden={!showForm}
        onSubmit={create}
        aria-label="New receptionist"
      >
        <AccountFields values={values} errors={errors} onChange={set} />
        <button type="submit" className="button button-primary" disabled={busy}>
          Create Receptionist
        </button>
      </form>
      <DataTable
        label="Receptionists"
        columns={columns}
        load={loadReceptionists}
        rowKey={(r) => r.id}
        emptyText="No receptionists yet."
        reloadKey={reloadKey}
        actions={actions}
      />
      {helpFor && <SignInHelpDialog name={helpFor.name} email={helpFor.email} staff onClose={() => setHelpFor(null)} />}
    </>
  );
}
