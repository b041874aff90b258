import { useEffect, useState } from 'react';
import { Link, useParams } from 'wouter';
import { apiGet } from '../../api.ts';
import type { Department } from '../../api-types.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { endpoints, routes, withId } from '../../paths.ts';

export default function DepartmentPage() {
  const { id } = useParams<{ id: string }>();
  const [department, setDepartment] = useState<Department | null>(null);
  useEffect(() => {
    apiGet<Department>(endpoints.admin.department(id))
      .then(setDepartment)
      .catch((error: unknown) => console.error('department fetch failed', error));
  }, [id]);

  return (
    <>
      <PageHeader title="Department">
        <Link href={routes.admin.departments} className="button button-small">
          Department List
        </Link>
      </PageHeader>
      {department && (
        <article className="card">
          <h2>{department.name}</h2>
          <p>{department.description}</p>
          <Link href={withId(routes.admin.editDepartment, department.id)} className="button button-small">
            Edit
          </Link>
        </article>
      )}
    </>
  );
}
