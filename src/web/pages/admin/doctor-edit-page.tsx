import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useParams } from 'wouter';
import { ApiError, apiGet, apiPut } from '../../api.ts';
import { Alert, failure, success } from '../../components/alert.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { hasFieldErrors, useSubmit } from '../../components/use-submit.ts';
import { endpoints, images, routes } from '../../paths.ts';
import { DoctorFields, doctorFormData, doctorValues, useDoctorChoices, type DoctorValues } from './doctor-form.tsx';
import { ScheduleForm } from './schedule-form.tsx';
import type { Doctor } from '../../../domain/catalogue/catalogue-shapes.ts';

/** Everything about one doctor: their details and photo, and their weekly schedule. */
export default function DoctorEditPage() {
  const { id } = useParams<{ id: string }>();
  const [doctor, setDoctor] = useState<Doctor | null>(null);
  const [values, setValues] = useState<DoctorValues | null>(null);
  const choices = useDoctorChoices(true);
  const photoRef = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const { alert, setAlert, dismiss } = useAlert();
  const { busy, errors, run } = useSubmit('doctor update');

  const show = (saved: Doctor) => {
    setDoctor(saved);
    setValues(doctorValues(saved));
  };

  useEffect(() => {
    apiGet<Doctor>(endpoints.admin.doctor(id))
      .then(show)
      .catch((error: unknown) => {
        console.error('doctor fetch failed', error);
        setAlert(
          failure(
            error instanceof ApiError && error.status === 404
              ? 'This doctor does not exist.'
              : 'Failed to load the doctor.',
          ),
        );
      });
  }, [id, setAlert]);

  const set = <K extends keyof DoctorValues>(key: K, value: DoctorValues[K]) =>
    setValues((was) => (was ? { ...was, [key]: value } : was));

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!values) return;
    return run(
      async () => {
        show(
          await apiPut<Doctor>(
            endpoints.admin.doctor(id),
            doctorFormData(values, photoRef.current?.files?.[0], { emptied: true }),
          ),
        );
        if (photoRef.current) photoRef.current.value = '';
        setAlert(success('Doctor updated successfully'));
      },
      (error) => setAlert(hasFieldErrors(error) ? null : failure('Failed to update doctor')),
    );
  };

  return (
    <>
      <PageHeader title={doctor ? `Edit ${doctor.name}` : 'Edit Doctor'}>
        <Link href={routes.admin.doctors} className="button button-small">
          Doctors
        </Link>
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      {doctor && values && (
        <>
          <form className="form card form-grid doctor-details" onSubmit={save} aria-label="Doctor details">
            <img
              className="avatar avatar-large field-wide"
              src={doctor.image ?? doctor.user.profile_image ?? images.defaultAvatar}
              alt={doctor.name}
              width="96"
              height="96"
            />
            <DoctorFields
              values={values}
              onChange={set}
              errors={errors}
              choices={choices}
              photoRef={photoRef}
              editing
            />
            <button type="submit" className="button button-primary" disabled={busy}>
              Save Doctor
            </button>
          </form>
          <section className="card" aria-labelledby={headingId}>
            <h2 id={headingId}>Weekly schedule</h2>
            <ScheduleForm doctorId={doctor.id} />
          </section>
        </>
      )}
    </>
  );
}
