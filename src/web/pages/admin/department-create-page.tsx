import { useState } from 'react';
import { Link } from 'wouter';
import { ApiError, apiPost } from '../../api.ts';
import type { FieldErrors } from '../../api-types.ts';
import { Alert, failure, success, type AlertMessage } from '../../components/alert.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { endpoints, routes } from '../../paths.ts';
import { DepartmentForm, type DepartmentValues } from './department-form.tsx';

const EMPTY: DepartmentValues = { name: '', description: '' };

export default function DepartmentCreatePage() {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [alert, setAlert] = useState<AlertMessage | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    setErrors({});
    try {
      await apiPost(endpoints.admin.departments, values);
      setAlert(success('Department created successfully'));
      setValues(EMPTY);
    } catch (error) {
      console.error('department create failed', error);
      // Server field errors are shown by their fields; anything else gets the spec's general message.
      if (error instanceof ApiError && Object.keys(error.errors).length > 0) {
        setErrors(error.errors);
        setAlert(null);
      } else setAlert(failure('An error occurred. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader title="Add Department">
        <Link href={routes.admin.departments} className="button button-small">
          Department List
        </Link>
      </PageHeader>
      <Alert message={alert} onDismiss={() => setAlert(null)} />
      <DepartmentForm values={values} errors={errors} busy={busy} submitLabel="Create Department" onChange={setValues} onSubmit={submit} />
    </>
  );
}
