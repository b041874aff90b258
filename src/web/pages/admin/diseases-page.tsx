import { useState, type FormEvent } from 'react';
import { ApiError, apiDelete, apiPost, fetchList, type ListQuery } from '../../api.ts';
import type { Disease, FieldErrors } from '../../api-types.ts';
import { Alert, failure, success } from '../../components/alert.tsx';
import { useConfirm } from '../../components/confirm.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Field } from '../../components/field.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { failureFor, useAlert } from '../../components/use-alert.ts';
import { endpoints } from '../../paths.ts';

const loadDiseases = (query: ListQuery) => fetchList<Disease>(endpoints.admin.diseases, 'diseases', query);
const EMPTY = { name: '', description: '' };

export default function DiseasesPage() {
  const confirm = useConfirm();
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      await apiPost(endpoints.admin.diseases, values);
      setAlert(success('Disease Created Successfully'));
      setValues(EMPTY);
      setReloadKey((key) => key + 1);
    } catch (error) {
      console.error('disease create failed', error);
      if (error instanceof ApiError) setErrors(error.errors);
      setAlert(failure('Failed to create disease'));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (disease: Disease) => {
    if (!(await confirm({ message: 'Are you sure you want to delete this disease?', confirmLabel: 'Delete' }))) return;
    try {
      await apiDelete(endpoints.admin.disease(disease.id));
      setAlert(success('Disease deleted successfully'));
      setReloadKey((key) => key + 1);
    } catch (error) {
      console.error('disease delete failed', error);
      setAlert(failureFor(error, 'Failed to delete disease'));
    }
  };

  const columns: Column<Disease>[] = [
    { header: 'ID', cell: (d) => d.id },
    { header: 'Name', cell: (d) => d.name },
    { header: 'Description', cell: (d) => d.description ?? '' },
    {
      header: 'Actions',
      cell: (d) => (
        <button type="button" className="button button-small button-danger" onClick={() => remove(d)} aria-label={`Delete ${d.name}`}>
          Delete
        </button>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="Diseases" />
      <Alert message={alert} onDismiss={dismiss} />
      <form className="form card form-narrow" onSubmit={create} aria-label="New disease">
        <Field label="Disease name" errors={errors.name}>
          {(control) => <input {...control} required value={values.name} onChange={(e) => setValues({ ...values, name: e.target.value })} />}
        </Field>
        <Field label="Description" errors={errors.description}>
          {(control) => <textarea {...control} rows={3} value={values.description} onChange={(e) => setValues({ ...values, description: e.target.value })} />}
        </Field>
        <button type="submit" className="button button-primary" disabled={busy}>
          Create Disease
        </button>
      </form>
      <DataTable label="Diseases" columns={columns} load={loadDiseases} rowKey={(d) => d.id} emptyText="No diseases found." reloadKey={reloadKey} />
    </>
  );
}
