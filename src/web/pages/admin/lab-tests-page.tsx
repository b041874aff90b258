/** The lab's test catalogue: tests, panels and imaging, searched by name or code, each added or edited here. */
import { useState } from 'react';
import { listAt } from '../../api.ts';
import { Alert, type AlertMessage } from '../../components/alert.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import type { LabTestJson } from '../../components/lab-labels.ts';
import { AddLabTestDialog, EditLabTestDialog } from '../../components/lab-test-dialogs.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { endpoints } from '../../paths.ts';

const loadTests = listAt<LabTestJson>(endpoints.lab.tests, 'tests');

/** The adult band for anyone, as the catalogue's first band gives it: "3.5–5.1". */
const band = (bands: LabTestJson['ranges']) => {
  const b = bands[0];
  if (!b || (b.low === null && b.high === null)) return '—';
  return `${b.low ?? ''}–${b.high ?? ''}${bands.length > 1 ? ` (+${bands.length - 1})` : ''}`;
};

const columns: Column<LabTestJson>[] = [
  { header: 'Code', text: (t) => t.code },
  { header: 'Name', text: (t) => t.name },
  { header: 'Kind', text: (t) => (t.kind === 'panel' ? 'Panel' : t.category === 'imaging' ? 'Imaging' : 'Test') },
  { header: 'Unit', text: (t) => t.unit ?? '—', priority: 2 },
  { header: 'Usual range', text: (t) => band(t.ranges), priority: 2 },
  { header: 'Critical', text: (t) => band(t.critical_limits), priority: 3 },
  { header: 'Price', text: (t) => `$${t.price}` },
  { header: 'Turnaround', text: (t) => `${t.turnaround_minutes} min`, priority: 3 },
  { header: 'Orderable', text: (t) => (t.active ? 'Yes' : 'No'), priority: 2 },
];

export default function LabTestsPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<LabTestJson | null>(null);
  const done = (message: AlertMessage) => {
    setAdding(false);
    setEditing(null);
    setAlert(message);
    setReloadKey((key) => key + 1);
  };
  return (
    <>
      <PageHeader title="Lab tests">
        <button type="button" className="button button-small button-primary" onClick={() => setAdding(true)}>
          Add test
        </button>
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      <DataTable
        label="Lab tests"
        columns={columns}
        load={loadTests}
        rowKey={(t) => t.id}
        rowName={(t) => t.name}
        emptyText="No tests found."
        reloadKey={reloadKey}
        actions={(t) => [{ label: 'Edit', name: `Edit ${t.name}`, onSelect: () => setEditing(t) }]}
      />
      {adding && <AddLabTestDialog onClose={() => setAdding(false)} onDone={done} />}
      {editing && <EditLabTestDialog test={editing} onClose={() => setEditing(null)} onDone={done} />}
    </>
  );
}
