/** A patient joins a doctor's waitlist for a range of days, or staff put one on it (the admin's patient overview). */
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { Doctor } from '../../domain/catalogue/catalogue.ts';
import { apiPost, fetchList } from '../api.ts';
import { endpoints } from '../paths.ts';
import { Alert, success } from './alert.tsx';
import { Field } from './field.tsx';
import { NamedSelect } from './named-select.tsx';
import { ALL, serverFailure, useAlert } from './use-alert.ts';
import { useSubmit } from './use-submit.ts';

interface WaitlistFormProps {
  title: string;
  /** The patient's own waitlist, or the staff's with `patient_id` in `fields`. */
  path: string;
  fields?: Record<string, unknown>;
  joinedText: string;
  onJoined?: () => void;
}

export function WaitlistForm({ title, path, fields = {}, joinedText, onJoined }: WaitlistFormProps) {
  const headingId = useId();
  const [doctors, setDoctors] = useState<Doctor[]>([]);
  const [doctorId, setDoctorId] = useState('');
  const [fromDate, setFromDate] = useState('');
  const [toDate, setToDate] = useState('');
  const { alert, setAlert, dismiss } = useAlert();
  const { errors, busy, run } = useSubmit('waitlist add');

  useEffect(() => {
    fetchList<Doctor>(endpoints.doctors, 'doctors', ALL)
      .then((list) => setDoctors(list.rows))
      .catch((error: unknown) => console.error('doctors fetch failed', error));
  }, []);

  const add = (event: FormEvent) => {
    event.preventDefault();
    return run(
      async () => {
        await apiPost(path, { ...fields, doctor_id: doctorId, from_date: fromDate, to_date: toDate });
        setAlert(success(joinedText));
        onJoined?.();
      },
      (error) => setAlert(serverFailure(error, 'Joining the waitlist failed. Please try again.')),
    );
  };

  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <Alert message={alert} onDismiss={dismiss} />
      <form onSubmit={(event) => void add(event)} noValidate>
        <div className="form-grid">
          <Field label="Doctor" errors={errors.doctor_id}>
            {(control) => (
              <NamedSelect
                control={control}
                placeholder="Choose a doctor"
                options={doctors}
                value={doctorId}
                onChange={setDoctorId}
                required
              />
            )}
          </Field>
          <Field label="From" errors={errors.from_date}>
            {(control) => (
              <input
                {...control}
                type="date"
                value={fromDate}
                onChange={(event) => setFromDate(event.target.value)}
                required
              />
            )}
          </Field>
          <Field label="To" errors={errors.to_date}>
            {(control) => (
              <input
                {...control}
                type="date"
                value={toDate}
                onChange={(event) => setToDate(event.target.value)}
                required
              />
            )}
          </Field>
        </div>
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={busy}>
            Join the waitlist
          </button>
        </div>
      </form>
    </section>
  );
}
