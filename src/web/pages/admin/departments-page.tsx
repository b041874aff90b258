import { useState } from 'react';
import { Link } from 'wouter';
import { listAt } from '../../api.ts';
import { Alert } from '../../components/alert.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { deleteAction, useRowDelete } from '../../components/row-delete.tsx';
import type { RowAction } from '../../components/row-actions.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { endpoints, routes, withId } from '../../paths.ts';
import type { Department } from '../../../domain/catalogue/catalogue-shapes.ts';

const PAGE_SIZE = 5;
const loadDepartments = listAt<Department>(endpoints.admin.departments, 'departments');

export default function DepartmentsPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);

  const remove = useRowDelete<Department>({
    noun: 'department',
    path: endpoints.admin.department,
    setAlert,
    onDeleted: () => setReloadKey((key) => key + 1),
  });

  const columns: Column<Department>[] = [
    { header: 'ID', cell: (d) => d.id, priority: 2 },
    { header: 'Name', text: (d) => d.name },
    { header: 'Description', text: (d) => d.description ?? '', priority: 2 },
  ];
  const actions = (d: Department): RowAction[] => [
    { label: 'Edit', name: `Edit ${d.name}`, href: withId(routes.admin.editDepartment, d.id) },
    deleteAction(d.name, () => remove(d)),
  ];

  return (
    <>
      <PageHeader title="Department List">
        <Link href={routes.admin.createDepartment} className="button button-primary">
          Add New Department
        </Link>
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      <DataTable
        label="Departments"
        columns={columns}
        load={loadDepartments}
        rowKey={(d) => d.id}
        pageSize={PAGE_SIZE}
        emptyText="No departments found."
        reloadKey={reloadKey}
        actions={actions}
      />
    </>
  );
}
