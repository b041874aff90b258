import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import type { WalkInJson } from '../../../domain/auth/staff-use-cases.ts';
import type { Gender } from '../../../domain/shared/actor.ts';
import { apiPost } from '../../api.ts';
import { Alert, failure } from '../../components/alert.tsx';
import { Field } from '../../components/field.tsx';
import { GenderSelect } from '../../components/gender-select.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { WITHOUT_EMAIL } from '../../components/patient-fields.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useSubmit } from '../../components/use-submit.ts';
import { routes, endpoints, withId } from '../../paths.ts';
import { PatientTable } from '../admin/patient-table.tsx';

const EMPTY = { name: '', email: '', phone: '', birthdate: '', gender: '' as Gender | '' };

/** Finding a patient, or registering one who walks in, with or without an e-mail address. */
export default function DeskPatientsPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [showForm, setShowForm] = useState(false);
  const [values, setValues] = useState(EMPTY);
  const { busy, errors, run } = useSubmit('walk-in registration');
  const [, navigate] = useLocation();
  const set = <K extends keyof typeof EMPTY>(key: K, value: (typeof EMPTY)[K]) => setValues((was) => ({ ...was, [key]: value }));

  const register = (event: FormEvent) => {
    event.preventDefault();
    return run(
      async () => {
        const { patient } = await apiPost<WalkInJson>(endpoints.desk.patients, { ...values, email: values.email || undefined });
        navigate(withId(routes.reception.patient, patient.id));
      },
      () => setAlert(failure('Failed to register the patient')),
    );
  };

  return (
    <>
      <PageHeader title="Patients">
        <button type="button" className="button button-primary" aria-expanded={showForm} aria-controls="walk-in-form" onClick={() => setShowForm(!showForm)}>
          {showForm ? 'Hide Form' : 'Register Walk-in'}
        </button>
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      <form id="walk-in-form" className="form card form-grid" hidden={!showForm} onSubmit={register} aria-label="New patient">
        <Field label="Name" errors={errors.name}>
          {(control) => <input {...control} required value={values.name} onChange={(e) => set('name', e.target.value)} />}
        </Field>
        <Field label="Email" errors={errors.email} hint={WITHOUT_EMAIL}>
          {(control) => <input {...control} type="email" autoComplete="off" value={values.email} onChange={(e) => set('email', e.target.value)} />}
        </Field>
        <Field label="Phone" errors={errors.phone}>
          {(control) => <input {...control} type="tel" required value={values.phone} onChange={(e) => set('phone', e.target.value)} />}
        </Field>
        <Field label="Birthdate" errors={errors.birthdate}>
          {(control) => <input {...control} type="date" required value={values.birthdate} onChange={(e) => set('birthdate', e.target.value)} />}
        </Field>
        <Field label="Gender" errors={errors.gender}>
          {(control) => <GenderSelect control={control} required value={values.gender} onChange={(gender) => set('gender', gender)} />}
        </Field>
        <button type="submit" className="button button-primary" disabled={busy}>
          Register Patient
        </button>
      </form>
      <PatientTable of="desk" />
    </>
  );
}
