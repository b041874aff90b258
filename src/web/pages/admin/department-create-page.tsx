import { useState } from 'react';
import { Link } from 'wouter';
import { apiPost } from '../../api.ts';
import { Alert, failure, success } from '../../components/alert.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { hasFieldErrors, useSubmit } from '../../components/use-submit.ts';
import { endpoints, routes } from '../../paths.ts';
import { DepartmentForm, type DepartmentValues } from './department-form.tsx';

const EMPTY: DepartmentValues = { name: '', description: '' };

export default function DepartmentCreatePage() {
  const [values, setValues] = useState(EMPTY);
  const { alert, setAlert, dismiss } = useAlert();
  const { busy, errors, run } = useSubmit('department create');

  const submit = () =>
    run(
      async () => {
        await apiPost(endpoints.admin.departments, values);
        setAlert(success('Department created successfully'));
        setValues(EMPTY);
      },
      // Server field errors are shown by their fields; anything else gets the spec's general message.
      (error) => setAlert(hasFieldErrors(error) ? null : failure('An error occurred. Please try again.')),
    );

  return (
    <>
      <PageHeader title="Add Department">
        <Link href={routes.admin.departments} className="button button-small">
          Department List
        </Link>
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      <DepartmentForm
        values={values}
        errors={errors}
        busy={busy}
        submitLabel="Create Department"
        onChange={setValues}
        onSubmit={submit}
      />
    </>
  );
}
