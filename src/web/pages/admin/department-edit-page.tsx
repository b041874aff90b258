import { useEffect, useState } from 'react';
import { Link, useParams } from 'wouter';
import { ApiError, apiGet, apiPut } from '../../api.ts';
import type { Department, FieldErrors } from '../../api-types.ts';
import { Alert, failure, success, type AlertMessage } from '../../components/alert.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { endpoints, routes } from '../../paths.ts';
import { DepartmentForm, type DepartmentValues } from './department-form.tsx';

export default function DepartmentEditPage() {
  const { id } = useParams<{ id: string }>();
  const [values, setValues] = useState<DepartmentValues | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [alert, setAlert] = useState<AlertMessage | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    apiGet<Department>(endpoints.admin.department(id))
      .then((department) => setValues({ name: department.name, description: department.description ?? '' }))
      .catch((error: unknown) => {
        console.error('department fetch failed', error);
        setAlert(failure('Failed to load department data.'));
      });
  }, [id]);

  const submit = async () => {
    if (!values) return;
    setBusy(true);
    setErrors({});
    try {
      await apiPut(endpoints.admin.department(id), values);
      setAlert(success('Department updated successfully'));
    } catch (error) {
      console.error('department update failed', error);
      if (error instanceof ApiError && Object.keys(error.errors).length > 0) {
        setErrors(error.errors);
        setAlert(null);
      } else setAlert(failure('Update failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader title="Edit Department">
        <Link href={routes.admin.departments} className="button button-small">
          Department List
        </Link>
      </PageHeader>
      <Alert message={alert} onDismiss={() => setAlert(null)} />
      {values && <DepartmentForm values={values} errors={errors} busy={busy} submitLabel="Update Department" onChange={setValues} onSubmit={submit} />}
    </>
  );
}
