import { useState } from 'react';
import { Link } from 'wouter';
import { apiDelete, fetchList, type ListQuery } from '../../api.ts';
import type { Department } from '../../api-types.ts';
import { Alert, success } from '../../components/alert.tsx';
import { useConfirm } from '../../components/confirm.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { failureFor, useAlert } from '../../components/use-alert.ts';
import { endpoints, routes, withId } from '../../paths.ts';

const PAGE_SIZE = 5;
const loadDepartments = (query: ListQuery) => fetchList<Department>(endpoints.admin.departments, 'departments', query);

export default function DepartmentsPage() {
  const confirm = useConfirm();
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);

  const remove = async (department: Department) => {
    if (!(await confirm({ message: 'Are you sure you want to delete this department?', confirmLabel: 'Delete' }))) return;
    try {
      await apiDelete(endpoints.admin.department(department.id));
      setAlert(success('Department deleted successfully'));
      setReloadKey((key) => key + 1);
    } catch (error) {
      console.error('department delete failed', error);
      setAlert(failureFor(error, 'Failed to delete department'));
    }
  };

  const columns: Column<Department>[] = [
    { header: 'ID', cell: (d) => d.id },
    { header: 'Name', cell: (d) => d.name },
    { header: 'Description', cell: (d) => d.description ?? '' },
    {
      header: 'Actions',
      cell: (d) => (
        <div className="row-actions">
          <Link href={withId(routes.admin.editDepartment, d.id)} className="button button-small" aria-label={`Edit ${d.name}`}>
            Edit
          </Link>
          <button type="button" className="button button-small button-danger" onClick={() => remove(d)} aria-label={`Delete ${d.name}`}>
            Delete
          </button>
        </div>
      ),
    },
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
      />
    </>
  );
}
