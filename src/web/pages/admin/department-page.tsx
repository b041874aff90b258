import { Link, useParams } from 'wouter';
import { PageHeader } from '../../components/page-header.tsx';
import { useFetched } from '../../components/use-fetched.ts';
import { endpoints, routes, withId } from '../../paths.ts';
import type { Department } from '../../../domain/catalogue/catalogue-shapes.ts';

export default function DepartmentPage() {
  const { id } = useParams<{ id: string }>();
  const department = useFetched<Department>(endpoints.admin.department(id), 'department');

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
