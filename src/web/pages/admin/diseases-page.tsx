import { useState } from 'react';
import type { Disease } from '../../../domain/catalogue/catalogue.ts';
import { apiPost, listAt } from '../../api.ts';
import { Alert } from '../../components/alert.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Field } from '../../components/field.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { deleteAction, useRowDelete } from '../../components/row-delete.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useCreateForm } from '../../components/use-create-form.ts';
import { endpoints } from '../../paths.ts';

const loadDiseases = listAt<Disease>(endpoints.admin.diseases, 'diseases');
const EMPTY = { name: '', description: '' };

export default function DiseasesPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [values, setValues] = useState(EMPTY);

  const { errors, busy, create } = useCreateForm({
    noun: 'disease',
    createdText: 'Disease Created Successfully',
    send: () => apiPost(endpoints.admin.diseases, values),
    setAlert,
    onCreated: () => {
      setValues(EMPTY);
      setReloadKey((key) => key + 1);
    },
  });

  const remove = useRowDelete<Disease>({
    noun: 'disease',
    path: endpoints.admin.disease,
    setAlert,
    onDeleted: () => setReloadKey((key) => key + 1),
  });

  const columns: Column<Disease>[] = [
    { header: 'ID', cell: (d) => d.id, priority: 2 },
    { header: 'Name', text: (d) => d.name },
    { header: 'Description', text: (d) => d.description ?? '', priority: 2 },
  ];
  const actions = (d: Disease) => [deleteAction(d.name, () => remove(d))];

  return (
    <>
      <PageHeader title="Diseases" />
      <Alert message={alert} onDismiss={dismiss} />
      <form className="form card form-narrow" onSubmit={create} aria-label="New disease">
        <Field label="Disease name" errors={errors.name}>
          {(control) => (
            <input
              {...control}
              required
              value={values.name}
              onChange={(e) => setValues({ ...values, name: e.target.value })}
            />
          )}
        </Field>
        <Field label="Description" errors={errors.description}>
          {(control) => (
            <textarea
              {...control}
              rows={3}
              value={values.description}
              onChange={(e) => setValues({ ...values, description: e.target.value })}
            />
          )}
        </Field>
        <button type="submit" className="button button-primary" disabled={busy}>
          Create Disease
        </button>
      </form>
      <DataTable
        label="Diseases"
        columns={columns}
        load={loadDiseases}
        rowKey={(d) => d.id}
        emptyText="No diseases found."
        reloadKey={reloadKey}
        actions={actions}
      />
    </>
  );
}
