/** An admin's beds of one room: the room's bed class and nightly rate, its beds added, renamed and retired. */
import { useCallback, useState, type FormEvent } from 'react';
import type { Room } from '../../../domain/catalogue/catalogue.ts';
import { apiGet, apiPost, apiPut, type ListQuery } from '../../api.ts';
import { Alert, success, type AlertMessage } from '../../components/alert.tsx';
import { useConfirm } from '../../components/confirm.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { Field } from '../../components/field.tsx';
import { localPage } from '../../components/local-page.ts';
import type { RowAction } from '../../components/row-actions.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useFetched } from '../../components/use-fetched.ts';
import { hasFieldErrors, useSubmit } from '../../components/use-submit.ts';
import { BED_STATE_LABELS, wardFailure, type BedBoardJson, type BedJson } from '../../components/ward.ts';
import { endpoints } from '../../paths.ts';

export function RoomBedsDialog({ room, onClose }: { room: Room; onClose: () => void }) {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const changed = (text: string) => {
    setAlert(success(text));
    setReloadKey((key) => key + 1);
  };
  const load = useCallback(
    async (query: ListQuery, signal: AbortSignal) => {
      const board = await apiGet<BedBoardJson>(endpoints.ward.bedBoard, { department_id: room.department_id }, signal);
      const beds = board.wards.flatMap((w) => w.rooms).find((r) => r.id === room.id)?.beds ?? [];
      return localPage(beds, query);
    },
    [room.id, room.department_id],
  );
  const [renaming, setRenaming] = useState<BedJson | null>(null);
  const confirm = useConfirm();

  const retire = async (bed: BedJson) => {
    if (
      !(await confirm({
        message: `Retire bed ${bed.label}? It leaves service; its past stays are kept.`,
        confirmLabel: 'Retire',
      }))
    )
      return;
    try {
      await apiPost(endpoints.admin.retireBed(bed.id));
      changed(`Bed ${bed.label} is retired`);
    } catch (error) {
      console.error('bed retire failed', error);
      setAlert(wardFailure(error, 'Failed to retire the bed'));
    }
  };

  const columns: Column<BedJson>[] = [
    { header: 'Bed', text: (b) => b.label },
    { header: 'State', cell: (b) => <StatusBadge status={`bed-${b.state}`} label={BED_STATE_LABELS[b.state]} /> },
  ];
  const actions = (b: BedJson): RowAction[] => [
    { label: 'Rename', name: `Rename bed ${b.label}`, onSelect: () => setRenaming(b) },
    { label: 'Retire', name: `Retire bed ${b.label}`, onSelect: () => void retire(b), tone: 'danger' },
  ];

  return (
    <Dialog open title={`Beds of ${room.name}`} onClose={onClose} className="dialog-wide">
      <Alert message={alert} onDismiss={dismiss} />
      <BedClassForm room={room} setAlert={setAlert} />
      <BedLabelForm
        key={renaming?.id ?? 'new'}
        bed={renaming}
        send={(label) =>
          renaming
            ? apiPut(endpoints.admin.bed(renaming.id), { label })
            : apiPost(endpoints.admin.roomBeds(room.id), { label })
        }
        onSaved={(label) => {
          changed(renaming ? `Bed ${renaming.label} is now bed ${label}` : `Bed ${label} added`);
          setRenaming(null);
        }}
        onCancel={() => setRenaming(null)}
        setAlert={setAlert}
      />
      <DataTable
        label={`Beds of ${room.name}`}
        columns={columns}
        load={load}
        rowKey={(b) => b.id}
        emptyText="No beds yet."
        reloadKey={reloadKey}
        searchable={false}
        actions={actions}
      />
    </Dialog>
  );
}

/** The class of the room's beds and what a night in one costs, in dollars as other amounts are entered. */
function BedClassForm({ room, setAlert }: { room: Room; setAlert: (message: AlertMessage) => void }) {
  const board = useFetched<BedBoardJson>(endpoints.ward.bedBoard, 'bed board', { department_id: room.department_id });
  const saved = board?.wards.flatMap((w) => w.rooms).find((r) => r.id === room.id);
  const [edited, setEdited] = useState<{ bed_class: string; nightly_rate: string } | null>(null);
  const values = edited ?? { bed_class: saved?.bed_class ?? '', nightly_rate: saved?.nightly_rate ?? '' };
  const { busy, errors, run } = useSubmit('bed class save');

  const save = (event: FormEvent) => {
    event.preventDefault();
    return run(
      async () => {
        await apiPut(endpoints.admin.roomBedClass(room.id), values);
        setAlert(success(`${room.name}: ${values.bed_class} beds saved`));
      },
      (error) => !hasFieldErrors(error) && setAlert(wardFailure(error, 'Failed to save the bed class')),
    );
  };

  return (
    <form className="form form-grid" onSubmit={save} aria-label="Bed class">
      <Field label="Bed class" errors={errors.bed_class}>
        {(control) => (
          <input
            {...control}
            required
            maxLength={60}
            value={values.bed_class}
            onChange={(e) => setEdited({ ...values, bed_class: e.target.value })}
          />
        )}
      </Field>
      <Field label="Nightly rate (USD)" errors={errors.nightly_rate}>
        {(control) => (
          <input
            {...control}
            type="number"
            required
            min="0"
            step="0.01"
            inputMode="decimal"
            value={values.nightly_rate}
            onChange={(e) => setEdited({ ...values, nightly_rate: e.target.value })}
          />
        )}
      </Field>
      <div className="form-row">
        <button type="submit" className="button button-primary" disabled={busy}>
          Save class and rate
        </button>
      </div>
    </form>
  );
}

interface BedLabelFormProps {
  /** The bed to rename, or null to add one. */
  bed: BedJson | null;
  send: (label: string) => Promise<unknown>;
  onSaved: (label: string) => void;
  onCancel: () => void;
  setAlert: (message: AlertMessage) => void;
}

function BedLabelForm({ bed, send, onSaved, onCancel, setAlert }: BedLabelFormProps) {
  const [label, setLabel] = useState(bed?.label ?? '');
  const { busy, errors, run } = useSubmit(bed ? 'bed rename' : 'bed create');
  const save = (event: FormEvent) => {
    event.preventDefault();
    return run(
      async () => {
        await send(label);
        onSaved(label.trim());
        setLabel('');
      },
      (error) =>
        !hasFieldErrors(error) &&
        setAlert(wardFailure(error, bed ? 'Failed to rename the bed' : 'Failed to add the bed')),
    );
  };
  return (
    <form className="form form-grid" onSubmit={save} aria-label={bed ? `Rename bed ${bed.label}` : 'New bed'}>
      {/* Renaming starts here: the field takes the focus from the row's Rename button. */}
      <Field label={bed ? `New label for bed ${bed.label}` : 'New bed label'} errors={errors.label}>
        {(control) => (
          <input
            {...control}
            required
            maxLength={40}
            // biome-ignore lint/a11y/noAutofocus: renaming starts in this field (see above)
            autoFocus={bed !== null}
            value={label}
            onChange={(e) => setLabel(e.target.value)}
          />
        )}
      </Field>
      <div className="form-row">
        <button type="submit" className="button button-primary" disabled={busy}>
          {bed ? 'Save label' : 'Add bed'}
        </button>
        {bed && (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
