import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import type { PossibleDuplicate, PossibleDuplicatesJson } from '../../../domain/patients/patients-shapes.ts';
import type { Gender } from '../../../domain/shared/actor.ts';
import { apiGet, apiPost } from '../../api.ts';
import { Alert, failure } from '../../components/alert.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { Field } from '../../components/field.tsx';
import { GenderSelect } from '../../components/gender-select.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { WITHOUT_EMAIL } from '../../components/patient-fields.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useSubmit } from '../../components/use-submit.ts';
import { routes, endpoints, withId } from '../../paths.ts';
import { PatientTable } from '../admin/patient-table.tsx';
import { formatDate } from '../../format.ts';
import type { WalkInJson } from '../../../domain/auth/auth-shapes.ts';

const EMPTY = { name: '', email: '', phone: '', birthdate: '', gender: '' as Gender | '' };

const MATCHED: Record<PossibleDuplicate['matched_on'][number], string> = {
  name_and_birthdate: 'same name and birthdate',
  phone: 'same phone',
};

/**
 * Finding a patient, or registering one who walks in, with or without an e-mail address. A patient who may be
 * registered already (same name and birthdate, or same phone) is shown first, with a link to their chart; the
 * desk registers anyway once it knows it is someone else.
 */
export default function DeskPatientsPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [showForm, setShowForm] = useState(false);
  const [values, setValues] = useState(EMPTY);
  const [matches, setMatches] = useState<PossibleDuplicate[]>([]);
  const [registered, setRegistered] = useState<WalkInJson['patient'] | null>(null);
  const { busy, errors, run } = useSubmit('walk-in registration');
  const set = <K extends keyof typeof EMPTY>(key: K, value: (typeof EMPTY)[K]) =>
    setValues((was) => ({ ...was, [key]: value }));
  const failed = () => setAlert(failure('Failed to register the patient'));

  const save = async () => {
    const { patient } = await apiPost<WalkInJson>(endpoints.desk.patients, {
      ...values,
      email: values.email || undefined,
    });
    setMatches([]);
    setValues(EMPTY);
    setShowForm(false);
    setRegistered(patient);
  };

  const register = (event: FormEvent) => {
    event.preventDefault();
    setRegistered(null);
    return run(async () => {
      const { patients } = await apiGet<PossibleDuplicatesJson>(endpoints.desk.duplicates, {
        name: values.name,
        birthdate: values.birthdate,
        phone: values.phone,
      });
      if (patients.length > 0) setMatches(patients);
      else await save();
    }, failed);
  };

  return (
    <>
      <PageHeader title="Patients">
        <button
          type="button"
          className="button button-primary"
          aria-expanded={showForm}
          aria-controls="walk-in-form"
          onClick={() => setShowForm(!showForm)}
        >
          {showForm ? 'Hide Form' : 'Register Walk-in'}
        </button>
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      {registered && (
        <section className="card walk-in-registered" role="status" aria-label="Patient registered">
          <p>
            <strong>{registered.name}</strong> (born {formatDate(registered.birthdate)}, phone {registered.phone}) is
            registered
            {registered.pending_email
              ? `; a link to confirm ${registered.pending_email} was sent to that address.`
              : ', without an e-mail address.'}
          </p>
          <div className="form-actions">
            <Link className="button" href={withId(routes.reception.patient, registered.id)}>
              Open {registered.name}'s chart
            </Link>
            <Link className="button button-primary" href={routes.reception.bookFor(registered.id)}>
              Book an appointment
            </Link>
          </div>
        </section>
      )}
      <form
        id="walk-in-form"
        className="form card form-grid"
        hidden={!showForm}
        onSubmit={register}
        aria-label="New patient"
      >
        <Field label="Name" errors={errors.name}>
          {(control) => (
            <input {...control} required value={values.name} onChange={(e) => set('name', e.target.value)} />
          )}
        </Field>
        <Field label="Email" errors={errors.email} hint={WITHOUT_EMAIL}>
          {(control) => (
            <input
              {...control}
              type="email"
              autoComplete="off"
              value={values.email}
              onChange={(e) => set('email', e.target.value)}
            />
          )}
        </Field>
        <Field label="Phone" errors={errors.phone}>
          {(control) => (
            <input
              {...control}
              type="tel"
              required
              value={values.phone}
              onChange={(e) => set('phone', e.target.value)}
            />
          )}
        </Field>
        <Field label="Birthdate" errors={errors.birthdate}>
          {(control) => (
            <input
              {...control}
              type="date"
              required
              value={values.birthdate}
              onChange={(e) => set('birthdate', e.target.value)}
            />
          )}
        </Field>
        <Field label="Gender" errors={errors.gender}>
          {(control) => (
            <GenderSelect
              control={control}
              required
              value={values.gender}
              onChange={(gender) => set('gender', gender)}
            />
          )}
        </Field>
        <button type="submit" className="button button-primary" disabled={busy}>
          Register Patient
        </button>
      </form>
      <Dialog
        open={matches.length > 0}
        title="Already registered?"
        onClose={() => setMatches([])}
        actions={
          <>
            <button type="button" className="button button-secondary" onClick={() => setMatches([])}>
              Back to the form
            </button>
            <button type="button" className="button button-secondary" disabled={busy} onClick={() => run(save, failed)}>
              Register a different person
            </button>
          </>
        }
      >
        <p>
          {matches.length === 1 ? 'A patient' : 'Patients'} like the one you are registering already have a chart. If it
          is the same person, open their chart instead.
        </p>
        <ul>
          {matches.map((m) => (
            <li key={m.id}>
              {m.name}, born {m.birthdate ? formatDate(m.birthdate) : '—'}, phone {m.phone || '—'}:{' '}
              {m.matched_on.map((why) => MATCHED[why]).join(' and ')}{' '}
              <Link
                className="button button-primary button-small"
                href={withId(routes.reception.patient, m.id)}
                aria-label={`Open the existing chart of ${m.name}`}
              >
                Open the existing chart
              </Link>
            </li>
          ))}
        </ul>
      </Dialog>
      <PatientTable of="desk" />
    </>
  );
}
