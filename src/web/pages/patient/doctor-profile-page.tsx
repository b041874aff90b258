import { Link, useParams } from 'wouter';
import type { Doctor } from '../../../domain/catalogue/catalogue.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { useFetched } from '../../components/use-fetched.ts';
import { formatDate } from '../../format.ts';
import { bookWithDoctor, images, endpoints, routes } from '../../paths.ts';

export default function DoctorProfilePage() {
  const { id } = useParams<{ id: string }>();
  const doctor = useFetched<Doctor>(endpoints.doctorProfile(id), 'doctor');

  return (
    <>
      <PageHeader title="Doctor Profile">
        <Link href={routes.patient.doctors} className="button button-small">
          Back to Doctor List
        </Link>
      </PageHeader>
      {doctor && (
        <article className="card doctor-profile">
          <img
            className="doctor-photo"
            src={doctor.image ?? doctor.user.profile_image ?? images.defaultAvatar}
            alt={doctor.name}
            width="160"
            height="160"
          />
          <div>
            <h2>{doctor.name}</h2>
            <p className="doctor-bio">{doctor.bio || 'No biography available.'}</p>
            <Link href={bookWithDoctor(doctor.id)} className="button button-primary">
              Book with this doctor
            </Link>
            <dl className="details">
              <dt>Doctor ID</dt>
              <dd>{doctor.id}</dd>
              <dt>Specialization</dt>
              <dd>{doctor.specialization?.name ?? 'N/A'}</dd>
              <dt>Department</dt>
              <dd>{doctor.department?.name ?? 'N/A'}</dd>
              <dt>Phone</dt>
              <dd>{doctor.phone || 'N/A'}</dd>
              <dt>Email</dt>
              <dd>{doctor.email}</dd>
              <dt>Birthdate</dt>
              <dd>{doctor.birthdate ? formatDate(doctor.birthdate) : 'N/A'}</dd>
              <dt>Address</dt>
              <dd>{doctor.address || 'No address available'}</dd>
            </dl>
          </div>
        </article>
      )}
    </>
  );
}
