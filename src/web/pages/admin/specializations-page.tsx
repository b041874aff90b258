import { useState, type FormEvent } from 'react';
import { ApiError, apiDelete, apiPost, fetchList, type ListQuery } from '../../api.ts';
import type { FieldErrors, Specialization } from '../../api-types.ts';
import { Alert, failure, success } from '../../components/alert.tsx';
import { useConfirm } from '../../components/confirm.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Field } from '../../components/field.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { failureFor, useAlert } from '../../components/use-alert.ts';
import { endpoints } from '../../paths.ts';

const loadSpecializations = (query: ListQuery) => fetchList<Specialization>(endpoints.admin.specializations, 'specializations', query);

export default function SpecializationsPage() {
  const confirm = useConfirm();
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [showForm, setShowForm] = useState(false);
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      await apiPost(endpoints.admin.specializations, { name });
      setAlert(success('Specialization created successfully'));
      setName('');
      setReloadKey((key) => key + 1);
    } catch (error) {
      console.error('specialization create failed', error);
      if (error instanceof ApiError) setErrors(error.errors);
      setAlert(failure('Failed to create specialization'));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (specialization: Specialization) => {
    if (!(await confirm({ message: 'Are you sure you want to delete this specialization?', confirmLabel: 'Delete' }))) return;
    try {
      await apiDelete(endpoints.admin.specialization(specialization.id));
      setAlert(success('Specialization deleted successfully'));
      setReloadKey((key) => key + 1);
    } catch (error) {
      console.error('specialization delete failed', error);
      setAlert(failureFor(error, 'Failed to delete specialization'));
    }
  };

  const columns: Column<Specialization>[] = [
    { header: 'ID', cell: (s) => s.id },
    { header: 'Name', cell: (s) => s.name },
    {
      header: 'Actions',
      cell: (s) => (
        <button type="button" className="button button-small button-danger" onClick={() => remove(s)} aria-label={`Delete ${s.name}`}>
          Delete
        </button>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="Specializations">
        <button type="button" className="button button-primary" aria-expanded={showForm} aria-controls="specialization-form" onClick={() => setShowForm(!showForm)}>
          {showForm ? 'Hide Form' : 'Add Specialization'}
        </button>
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      <form id="specialization-form" className="form card form-narrow" hidden={!showForm} onSubmit={create} aria-label="New specialization">
        <Field label="Specialization name" errors={errors.name}>
          {(control) => <input {...control} required value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <button type="submit" className="button button-primary" disabled={busy}>
          Create Specialization
        </button>
      </form>
      <DataTable label="Specializations" columns={columns} load={loadSpecializations} rowKey={(s) => s.id} emptyText="No specializations found." reloadKey={reloadKey} />
    </>
  );
}
