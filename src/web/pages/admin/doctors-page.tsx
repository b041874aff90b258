import { useRef, useState } from 'react';
import type { DoctorDeletionJson } from '../../../domain/catalogue/catalogue-shapes.ts';
import { apiPost, listAt } from '../../api.ts';
import { Alert } from '../../components/alert.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { deleteAction, useRowDelete } from '../../components/row-delete.tsx';
import type { RowAction } from '../../components/row-actions.tsx';
import { SignInHelpDialog } from '../../components/sign-in-help.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useCreateForm } from '../../components/use-create-form.ts';
import { endpoints, images, routes, withId } from '../../paths.ts';
import { DoctorFields, EMPTY_DOCTOR, doctorFormData, useDoctorChoices, type DoctorValues } from './doctor-form.tsx';
import { ScheduleForm } from './schedule-form.tsx';
import type { Doctor } from '../../../domain/catalogue/catalogue-shapes.ts';

const loadDoctors = listAt<Doctor>(endpoints.admin.doctors, 'doctors');

export default function DoctorsPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [showForm, setShowForm] = useState(false);
  const [values, setValues] = useState<DoctorValues>(EMPTY_DOCTOR);
  const choices = useDoctorChoices(showForm);
  const [scheduleOf, setScheduleOf] = useState<Doctor | null>(null);
  const [helpFor, setHelpFor] = useState<Doctor | null>(null);
  const photoRef = useRef<HTMLInputElement>(null);

  const set = <K extends keyof DoctorValues>(key: K, value: DoctorValues[K]) =>
    setValues((was) => ({ ...was, [key]: value }));

  const { errors, busy, create } = useCreateForm({
    noun: 'doctor',
    createdText: 'Doctor created successfully',
    send: () =>
      apiPost(endpoints.admin.doctors, doctorFormData(values, photoRef.current?.files?.[0], { emptied: false })),
    setAlert,
    onCreated: () => {
      setValues(EMPTY_DOCTOR);
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
      cell: (d) => (
        <img
          className="avatar"
          src={d.image ?? d.user.profile_image ?? images.defaultAvatar}
          alt=""
          width="40"
          height="40"
        />
      ),
    },
    { header: 'ID', cell: (d) => d.id, priority: 2 },
    { header: 'Name', text: (d) => d.name },
    { header: 'Email', text: (d) => d.email, priority: 2 },
    { header: 'Specialization', text: (d) => d.specialization?.name ?? '', priority: 3 },
    { header: 'Department', text: (d) => d.department?.name ?? '', priority: 3 },
    { header: 'Phone', cell: (d) => d.phone ?? '', priority: 3 },
  ];
  const actions = (d: Doctor): RowAction[] => [
    { label: 'Edit', name: `Edit ${d.name}`, href: withId(routes.admin.editDoctor, d.id) },
    { label: 'Schedule', name: `Schedule of ${d.name}`, onSelect: () => setScheduleOf(d) },
    { label: 'Sign-in help', name: `Sign-in help for ${d.name}`, onSelect: () => setHelpFor(d) },
    deleteAction(d.name, () => remove(d)),
  ];

  return (
    <>
      <PageHeader title="Doctors">
        <button
          type="button"
          className="button button-primary"
          aria-expanded={showForm}
          aria-controls="doctor-form"
          onClick={() => setShowForm(!showForm)}
        >
          {showForm ? 'Hide Form' : 'Add Doctor'}
        </button>
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      <form
        id="doctor-form"
        className="form card form-grid"
        hidden={!showForm}
        onSubmit={create}
        aria-label="New doctor"
      >
        <DoctorFields values={values} onChange={set} errors={errors} choices={choices} photoRef={photoRef} />
        <button type="submit" className="button button-primary" disabled={busy}>
          Create Doctor
        </button>
      </form>
      <DataTable
        label="Doctors"
        columns={columns}
        load={loadDoctors}
        rowKey={(d) => d.id}
        emptyText="No doctors found."
        reloadKey={reloadKey}
        actions={actions}
      />
      {scheduleOf && <ScheduleDialog doctor={scheduleOf} onClose={() => setScheduleOf(null)} />}
      {helpFor && <SignInHelpDialog name={helpFor.name} email={helpFor.email} staff onClose={() => setHelpFor(null)} />}
    </>
  );
}

/** A doctor's weekly working hours in a dialog over the list. */
function ScheduleDialog({ doctor, onClose }: { doctor: Doctor; onClose: () => void }) {
  return (
    <Dialog open title={`Weekly schedule: ${doctor.name}`} onClose={onClose} className="dialog-wide">
      <ScheduleForm doctorId={doctor.id} />
    </Dialog>
  );
}
