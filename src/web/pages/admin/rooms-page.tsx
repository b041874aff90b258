import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Department, Room } from '../../../domain/catalogue/catalogue.ts';
import { apiPost, apiPut, fetchList, listAt } from '../../api.ts';
import { Alert, failure, success } from '../../components/alert.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Field } from '../../components/field.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { deleteAction, useRowDelete } from '../../components/row-delete.tsx';
import type { RowAction } from '../../components/row-actions.tsx';
import { ALL, useAlert } from '../../components/use-alert.ts';
import { NamedSelect } from '../../components/named-select.tsx';
import { useSubmit } from '../../components/use-submit.ts';
import { RoomBedsDialog } from './room-beds-dialog.tsx';
import { endpoints } from '../../paths.ts';

const loadRooms = listAt<Room>(endpoints.admin.rooms, 'rooms');

interface RoomValues {
  id: number | null;
  name: string;
  department_id: string;
}
const EMPTY: RoomValues = { id: null, name: '', department_id: '' };

export default function RoomsPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [departments, setDepartments] = useState<Department[]>([]);
  const [values, setValues] = useState<RoomValues>(EMPTY);
  const { busy, errors, setErrors, run } = useSubmit('room save');
  const nameRef = useRef<HTMLInputElement>(null);
  const [bedsOf, setBedsOf] = useState<Room | null>(null);

  useEffect(() => {
    fetchList<Department>(endpoints.admin.departments, 'departments', ALL)
      .then((list) => setDepartments(list.rows))
      .catch((error: unknown) => console.error('departments fetch failed', error));
  }, []);

  const save = (event: FormEvent) => {
    event.preventDefault();
    const body = { name: values.name, department_id: values.department_id ? Number(values.department_id) : null };
    return run(
      async () => {
        if (values.id === null) {
          await apiPost(endpoints.admin.rooms, body);
          setAlert(success('Room created successfully'));
        } else {
          await apiPut(endpoints.admin.room(values.id), body);
          setAlert(success('Room updated successfully'));
        }
        setValues(EMPTY);
        setReloadKey((key) => key + 1);
      },
      () => setAlert(failure(values.id === null ? 'Failed to create room' : 'Failed to update room')),
    );
  };

  const remove = useRowDelete<Room>({
    noun: 'room',
    path: endpoints.admin.room,
    setAlert,
    onDeleted: (room) => {
      if (values.id === room.id) setValues(EMPTY);
      setReloadKey((key) => key + 1);
    },
  });

  const columns: Column<Room>[] = [
    { header: 'ID', cell: (r) => r.id, priority: 2 },
    { header: 'Name', text: (r) => r.name },
    { header: 'Department', text: (r) => r.department?.name ?? '', priority: 2 },
  ];
  const edit = (r: Room) => {
    setErrors({});
    setValues({ id: r.id, name: r.name, department_id: r.department_id ? String(r.department_id) : '' });
    nameRef.current?.focus();
  };
  const actions = (r: Room): RowAction[] => [
    { label: 'Edit', name: `Edit ${r.name}`, onSelect: () => edit(r) },
    { label: 'Beds', name: `Beds of ${r.name}`, onSelect: () => setBedsOf(r) },
    deleteAction(r.name, () => remove(r)),
  ];

  return (
    <>
      <PageHeader title="Rooms" />
      <Alert message={alert} onDismiss={dismiss} />
      <form
        className="form card form-narrow"
        onSubmit={save}
        aria-label={values.id === null ? 'New room' : 'Edit room'}
      >
        <Field label="Room name" errors={errors.name}>
          {(control) => (
            <input
              {...control}
              ref={nameRef}
              required
              value={values.name}
              onChange={(e) => setValues({ ...values, name: e.target.value })}
            />
          )}
        </Field>
        <Field label="Department" errors={errors.department_id}>
          {(control) => (
            <NamedSelect
              control={control}
              required
              placeholder="Select department"
              options={departments}
              value={values.department_id}
              onChange={(id) => setValues({ ...values, department_id: id })}
            />
          )}
        </Field>
        <div className="form-row">
          <button type="submit" className="button button-primary" disabled={busy}>
            {values.id === null ? 'Create Room' : 'Update Room'}
          </button>
          {values.id !== null && (
            <button type="button" className="button" onClick={() => setValues(EMPTY)}>
              Cancel Edit
            </button>
          )}
        </div>
      </form>
      <DataTable
        label="Rooms"
        columns={columns}
        load={loadRooms}
        rowKey={(r) => r.id}
        emptyText="No rooms found."
        reloadKey={reloadKey}
        actions={actions}
      />
      {bedsOf && <RoomBedsDialog room={bedsOf} onClose={() => setBedsOf(null)} />}
    </>
  );
}
