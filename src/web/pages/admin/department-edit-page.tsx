import { useEffect, useState } from 'react';
import { Link, useParams } from 'wouter';
import type { Department } from '../../../domain/catalogue/catalogue.ts';
import { apiGet, apiPut } from '../../api.ts';
import { Alert, failure, success } from '../../components/alert.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { hasFieldErrors, useSubmit } from '../../components/use-submit.ts';
import { endpoints, routes } from '../../paths.ts';
import { DepartmentForm, type DepartmentValues } from './department-form.tsx';

export default function DepartmentEditPage() {
  const { id } = useParams<{ id: string }>();
  const [values, setValues] = useState<DepartmentValues | null>(null);
  const { alert, setAlert, dismiss } = useAlert();
  const { busy, errors, run } = useSubmit('department update');

  useEffect(() => {
    apiGet<Department>(endpoints.admin.department(id))
      .then((department) => setValues({ name: department.name, description: department.description ?? '' }))
      .catch((error: unknown) => {
        console.error('department fetch failed', error);
        setAlert(failure('Failed to load department data.'));
      });
  }, [id]);

  const submit = () =>
    run(
      async () => {
        await apiPut(endpoints.admin.department(id), values);
        setAlert(success('Department updated successfully'));
      },
      (error) => setAlert(hasFieldErrors(error) ? null : failure('Update failed')),
    );

  return (
    <>
      <PageHeader title="Edit Department">
        <Link href={routes.admin.departments} className="button button-small">
          Department List
        </Link>
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      {values && (
        <DepartmentForm
          values={values}
          errors={errors}
          busy={busy}
          submitLabel="Update Department"
          onChange={setValues}
          onSubmit={submit}
        />
      )}
    </>
  );
}
