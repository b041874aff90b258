import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Department, Doctor, Specialization } from '../../../domain/catalogue/catalogue.ts';
import type { DoctorDeletionJson } from '../../../domain/catalogue/doctor-use-cases.ts';
import type { WeeklySlotJson } from '../../../domain/scheduling/scheduling.ts';
import type { ScheduleJson } from '../../../domain/scheduling/use-cases.ts';
import type { Gender } from '../../../domain/shared/actor.ts';
import { ApiError, apiGet, apiPost, apiPut, fetchList, listAt } from '../../api.ts';
import { Alert, failure, success } from '../../components/alert.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { Field } from '../../components/field.tsx';
import { GenderSelect } from '../../components/gender-select.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { DeleteButton, useRowDelete } from '../../components/row-delete.tsx';
import { SignInHelp } from '../../components/sign-in-help.tsx';
import { ALL, useAlert } from '../../components/use-alert.ts';
import { useCreateForm } from '../../components/use-create-form.ts';
import { NamedSelect } from '../../components/named-select.tsx';
import { useSubmit } from '../../components/use-submit.ts';
import { endpoints, images } from '../../paths.ts';

const loadDoctors = listAt<Doctor>(endpoints.admin.doctors, 'doctors');

interface DoctorValues {
  name: string;
  email: string;
  password: string;
  phone: string;
  gender: Gender | '';
  specialization_id: string;
  department_id: string;
  bio: string;
  birthdate: string;
  address: string;
}
const EMPTY: DoctorValues = {
  name: '',
  email: '',
  password: '',
  phone: '',
  gender: '',
  specialization_id: '',
  department_id: '',
  bio: '',
  birthdate: '',
  address: '',
};

export default function DoctorsPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [showForm, setShowForm] = useState(false);
  const [values, setValues] = useState<DoctorValues>(EMPTY);
  const [specializations, setSpecializations] = useState<Specialization[]>([]);
  const [departments, setDepartments] = useState<Department[]>([]);
  const [scheduleOf, setScheduleOf] = useState<Doctor | null>(null);
  const photoRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!showForm) return;
    fetchList<Specialization>(endpoints.admin.specializations, 'specializations', ALL)
      .then((list) => setSpecializations(list.rows))
      .catch((error: unknown) => console.error('specializations fetch failed', error));
    fetchList<Department>(endpoints.admin.departments, 'departments', ALL)
      .then((list) => setDepartments(list.rows))
      .catch((error: unknown) => console.error('departments fetch failed', error));
  }, [showForm]);

  const set = <K extends keyof DoctorValues>(key: K, value: DoctorValues[K]) => setValues((was) => ({ ...was, [key]: value }));

  const { errors, busy, create } = useCreateForm({
    noun: 'doctor',
    createdText: 'Doctor created successfully',
    send: () => {
      const form = new FormData();
      for (const [key, value] of Object.entries(values)) if (value !== '') form.append(key, value);
      const photo = photoRef.current?.files?.[0];
      if (photo) form.append('photo', photo);
      return apiPost(endpoints.admin.doctors, form);
    },
    setAlert,
    onCreated: () => {
      setValues(EMPTY);
      if (photoRef.current) photoRef.current.value = '';
      setReloadKey((key) => key + 1);
    },
  });

  const remove = useRowDelete<Doctor, DoctorDeletionJson>({
    noun: 'doctor',
    path: endpoints.admin.doctor,
    setAlert,
    onDeleted: () => setReloadKey((key) => key + 1),
    outcome: (answer) =>
      answer.result === 'deactivated'
        ? 'Doctor deactivated: their appointments and records are kept, and they can no longer sign in'
        : undefined,
  });

  const columns: Column<Doctor>[] = [
    {
      header: 'Photo',
      priority: 3,
      cell: (d) => <img className="avatar" src={d.image ?? d.user.profile_image ?? images.defaultAvatar} alt="" width="40" height="40" />,
    },
    { header: 'ID', cell: (d) => d.id, priority: 2 },
    { header: 'Name', text: (d) => d.name },
    { header: 'Email', text: (d) => d.email, priority: 2 },
    { header: 'Specialization', text: (d) => d.specialization?.name ?? '', priority: 3 },
    { header: 'Department', text: (d) => d.department?.name ?? '', priority: 3 },
    { header: 'Phone', cell: (d) => d.phone ?? '', priority: 3 },
    {
      header: 'Actions',
      cell: (d) => (
        <div className="row-actions">
          <button type="button" className="button button-small" onClick={() => setScheduleOf(d)} aria-label={`Schedule of ${d.name}`}>
            Schedule
          </button>
          <SignInHelp name={d.name} email={d.email} staff />
          <DeleteButton name={d.name} onClick={() => remove(d)} />
        </div>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="Doctors">
        <button type="button" className="button button-primary" aria-expanded={showForm} aria-controls="doctor-form" onClick={() => setShowForm(!showForm)}>
          {showForm ? 'Hide Form' : 'Add Doctor'}
        </button>
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      <form id="doctor-form" className="form card form-grid" hidden={!showForm} onSubmit={create} aria-label="New doctor">
        <Field label="Name" errors={errors.name}>
          {(control) => <input {...control} required value={values.name} onChange={(e) => set('name', e.target.value)} />}
        </Field>
        <Field label="Email" errors={errors.email}>
          {(control) => <input {...control} type="email" required autoComplete="off" value={values.email} onChange={(e) => set('email', e.target.value)} />}
        </Field>
        <Field label="Password" errors={errors.password}>
          {(control) => (
            <input {...control} type="password" required autoComplete="new-password" value={values.password} onChange={(e) => set('password', e.target.value)} />
          )}
        </Field>
        <Field label="Phone" errors={errors.phone}>
          {(control) => <input {...control} type="tel" value={values.phone} onChange={(e) => set('phone', e.target.value)} />}
        </Field>
        <Field label="Gender" errors={errors.gender}>
          {(control) => <GenderSelect control={control} value={values.gender} onChange={(gender) => set('gender', gender)} />}
        </Field>
        <Field label="Specialization" errors={errors.specialization_id}>
          {(control) => (
            <NamedSelect
              control={control}
              placeholder="Select specialization"
              options={specializations}
              value={values.specialization_id}
              onChange={(id) => set('specialization_id', id)}
            />
          )}
        </Field>
        <Field label="Department" errors={errors.department_id}>
          {(control) => (
            <NamedSelect control={control} placeholder="Select department" options={departments} value={values.department_id} onChange={(id) => set('department_id', id)} />
          )}
        </Field>
        <Field label="Birthdate" errors={errors.birthdate}>
          {(control) => <input {...control} type="date" value={values.birthdate} onChange={(e) => set('birthdate', e.target.value)} />}
        </Field>
        <Field label="Address" errors={errors.address}>
          {(control) => <input {...control} value={values.address} onChange={(e) => set('address', e.target.value)} />}
        </Field>
        <Field label="Photo" errors={errors.photo} hint="PNG, JPEG or WebP, at most 2 MB.">
          {(control) => <input {...control} ref={photoRef} type="file" accept="image/png,image/jpeg,image/webp" />}
        </Field>
        <Field label="Bio" errors={errors.bio} className="field-wide">
          {(control) => <textarea {...control} rows={3} value={values.bio} onChange={(e) => set('bio', e.target.value)} />}
        </Field>
        <button type="submit" className="button button-primary" disabled={busy}>
          Create Doctor
        </button>
      </form>
      <DataTable label="Doctors" columns={columns} load={loadDoctors} rowKey={(d) => d.id} emptyText="No doctors found." reloadKey={reloadKey} />
      {scheduleOf && <ScheduleDialog doctor={scheduleOf} onClose={() => setScheduleOf(null)} />}
    </>
  );
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** A doctor's weekly working hours: the current slots, and a form that replaces them (days, hours, slot length). */
function ScheduleDialog({ doctor, onClose }: { doctor: Doctor; onClose: () => void }) {
  const [slots, setSlots] = useState<WeeklySlotJson[] | null>(null);
  const [days, setDays] = useState<number[]>([1, 2, 3, 4, 5]);
  const [start, setStart] = useState('09:00');
  const [end, setEnd] = useState('17:00');
  const [minutes, setMinutes] = useState('30');
  const { alert, setAlert, dismiss } = useAlert();
  const { busy, errors, run } = useSubmit('schedule save');

  useEffect(() => {
    apiGet<ScheduleJson>(endpoints.admin.doctorSchedule(doctor.id))
      .then((answer) => {
        setSlots(answer.slots);
        const worked = [...new Set(answer.slots.map((s) => s.weekday))].sort();
        if (worked.length > 0) {
          setDays(worked);
          setStart(answer.slots.reduce((min, s) => (s.start_time < min ? s.start_time : min), '23:59'));
          setEnd(answer.slots.reduce((max, s) => (s.end_time > max ? s.end_time : max), '00:00'));
        }
      })
      .catch((error: unknown) => {
        console.error('schedule fetch failed', error);
        setSlots([]);
      });
  }, [doctor.id]);

  const save = (event: FormEvent) => {
    event.preventDefault();
    return run(
      async () => {
        const answer = await apiPut<ScheduleJson>(endpoints.admin.doctorSchedule(doctor.id), {
          days,
          start_time: start,
          end_time: end,
          slot_minutes: Number(minutes),
        });
        setSlots(answer.slots);
        setAlert(success('Schedule saved successfully'));
      },
      (error) => setAlert(failure(error instanceof ApiError ? `Failed to save schedule: ${error.message}` : 'Failed to save schedule')),
    );
  };

  const perDay = (weekday: number) => (slots ?? []).filter((s) => s.weekday === weekday).length;

  return (
    <Dialog open title={`Weekly schedule: ${doctor.name}`} onClose={onClose} className="dialog-wide">
      <Alert message={alert} onDismiss={dismiss} />
      <form className="form" onSubmit={save} aria-label="Working hours">
        <fieldset className="weekdays">
          <legend>Working days</legend>
          {WEEKDAYS.map((day, index) => (
            <label key={day} className="checkbox">
              <input
                type="checkbox"
                checked={days.includes(index + 1)}
                onChange={(e) => setDays(e.target.checked ? [...days, index + 1].sort() : days.filter((d) => d !== index + 1))}
              />
              {day}
              <span className="muted"> ({perDay(index + 1)} slots)</span>
            </label>
          ))}
        </fieldset>
        {errors.days && <p className="field-error">{errors.days.join(' ')}</p>}
        <div className="form-row">
          <Field label="Start time" errors={errors.start_time}>
            {(control) => <input {...control} type="time" required value={start} onChange={(e) => setStart(e.target.value)} />}
          </Field>
          <Field label="End time" errors={errors.end_time}>
            {(control) => <input {...control} type="time" required value={end} onChange={(e) => setEnd(e.target.value)} />}
          </Field>
          <Field label="Slot minutes" errors={errors.slot_minutes}>
            {(control) => <input {...control} type="number" min={5} max={240} required value={minutes} onChange={(e) => setMinutes(e.target.value)} />}
          </Field>
        </div>
        <button type="submit" className="button button-primary" disabled={busy || days.length === 0}>
          Save Schedule
        </button>
      </form>
    </Dialog>
  );
}
