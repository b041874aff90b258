import { useState } from 'react';
import type { Specialization } from '../../../domain/catalogue/catalogue.ts';
import { apiPost, listAt } from '../../api.ts';
import { Alert } from '../../components/alert.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Field } from '../../components/field.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { deleteAction, useRowDelete } from '../../components/row-delete.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useCreateForm } from '../../components/use-create-form.ts';
import { endpoints } from '../../paths.ts';

const loadSpecializations = listAt<Specialization>(endpoints.admin.specializations, 'specializations');

export default function SpecializationsPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [showForm, setShowForm] = useState(false);
  const [name, setName] = useState('');

  const { errors, busy, create } = useCreateForm({
    noun: 'specialization',
    createdText: 'Specialization created successfully',
    send: () => apiPost(endpoints.admin.specializations, { name }),
    setAlert,
    onCreated: () => {
      setName('');
      setReloadKey((key) => key + 1);
    },
  });

  const remove = useRowDelete<Specialization>({
    noun: 'specialization',
    path: endpoints.admin.specialization,
    setAlert,
    onDeleted: () => setReloadKey((key) => key + 1),
  });

  const columns: Column<Specialization>[] = [
    { header: 'ID', cell: (s) => s.id },
    { header: 'Name', text: (s) => s.name },
  ];
  const actions = (s: Specialization) => [deleteAction(s.name, () => remove(s))];

  return (
    <>
      <PageHeader title="Specializations">
        <button
          type="button"
          className="button button-primary"
          aria-expanded={showForm}
          aria-controls="specialization-form"
          onClick={() => setShowForm(!showForm)}
        >
          {showForm ? 'Hide Form' : 'Add Specialization'}
        </button>
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      <form
        id="specialization-form"
        className="form card form-narrow"
        hidden={!showForm}
        onSubmit={create}
        aria-label="New specialization"
      >
        <Field label="Specialization name" errors={errors.name}>
          {(control) => <input {...control} required value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <button type="submit" className="button button-primary" disabled={busy}>
          Create Specialization
        </button>
      </form>
      <DataTable
        label="Specializations"
        columns={columns}
        load={loadSpecializations}
        rowKey={(s) => s.id}
        emptyText="No specializations found."
        reloadKey={reloadKey}
        actions={actions}
      />
    </>
  );
}
