/** The systems Medora sends HL7 v2 to: each one's address, the events it takes, its queue and its dead letters. */
import { useState } from 'react';
import type { Hl7EventCode } from '../../../domain/notifications/hl7-events.ts';
import type { ReceiverJson } from '../../../domain/interfaces/interfaces-shapes.ts';
import { apiPost, apiPut, listAt } from '../../api.ts';
import { success, type AlertMessage } from '../../components/alert.tsx';
import { ActionDialog } from '../../components/action-dialog.tsx';
import { useConfirm } from '../../components/confirm.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Field } from '../../components/field.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { failureFor } from '../../components/use-alert.ts';
import { formatDateTime } from '../../format.ts';
import { endpoints } from '../../paths.ts';

// Every event a receiver takes, typed against the domain's list so neither can drift (the web imports only its types).
const EVENT_WORDS: Record<Hl7EventCode, string> = {
  A01: 'ADT^A01 admit',
  A02: 'ADT^A02 transfer',
  A03: 'ADT^A03 discharge',
  A04: 'ADT^A04 register a patient',
  A08: "ADT^A08 update a patient's details",
  A11: 'ADT^A11 cancel an admission',
  A12: 'ADT^A12 cancel a transfer',
  A13: 'ADT^A13 cancel a discharge',
  O21: 'OML^O21 a lab order placed or cancelled',
};
const EVENTS = Object.keys(EVENT_WORDS) as Hl7EventCode[];

const loadReceivers = listAt<ReceiverJson>(endpoints.hl7.receivers, 'receivers');

interface ReceiversProps {
  /** Change it to load the queue depths again, e.g. after a resend. */
  reloadKey: number;
  onChanged: (message: AlertMessage) => void;
}

export function Hl7Receivers({ reloadKey, onChanged }: ReceiversProps) {
  const [editing, setEditing] = useState<ReceiverJson | 'new' | null>(null);
  const confirm = useConfirm();

  const deactivate = async (r: ReceiverJson) => {
    const message = `Stop sending to ${r.name}? Its ${r.queued} queued messages wait until it is reactivated.`;
    if (!(await confirm({ title: 'Deactivate receiver', message, confirmLabel: 'Deactivate' }))) return;
    try {
      await apiPost(endpoints.hl7.deactivateReceiver(r.id));
      onChanged(success(`${r.name} deactivated`));
    } catch (error) {
      console.error('receiver deactivate failed', error);
      onChanged(failureFor(error, `Failed to deactivate ${r.name}`));
    }
  };
  const reactivate = async (r: ReceiverJson) => {
    try {
      await apiPut(endpoints.hl7.receiver(r.id), {
        name: r.name,
        host: r.host,
        port: r.port,
        events: r.events,
        active: true,
      });
      onChanged(success(`${r.name} reactivated`));
    } catch (error) {
      console.error('receiver reactivate failed', error);
      onChanged(failureFor(error, `Failed to reactivate ${r.name}`));
    }
  };

  const columns: Column<ReceiverJson>[] = [
    { header: 'Name', text: (r) => r.name },
    { header: 'Address', text: (r) => `${r.host}:${r.port}`, priority: 2 },
    { header: 'Events', text: (r) => r.events.join(', '), priority: 3 },
    { header: 'Queued', cell: (r) => r.queued },
    { header: 'Dead letters', cell: (r) => r.dead },
    { header: 'Last sent', cell: (r) => (r.last_sent_at ? formatDateTime(r.last_sent_at) : '—'), priority: 3 },
    { header: 'Status', cell: (r) => <StatusBadge status={r.active ? 'active' : 'inactive'} /> },
  ];

  return (
    <>
      <DataTable
        label="Receivers"
        columns={columns}
        load={loadReceivers}
        rowKey={(r) => r.id}
        emptyText="No receivers yet: Medora sends HL7 to none."
        reloadKey={reloadKey}
        searchable={false}
        filters={
          <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
            Add receiver
          </button>
        }
        actions={(r) => [
          { label: 'Edit', name: `Edit ${r.name}`, onSelect: () => setEditing(r) },
          r.active
            ? { label: 'Deactivate', name: `Deactivate ${r.name}`, tone: 'danger', onSelect: () => void deactivate(r) }
            : { label: 'Reactivate', name: `Reactivate ${r.name}`, onSelect: () => void reactivate(r) },
        ]}
      />
      {editing && (
        <ReceiverDialog
          receiver={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onDone={(message) => {
            setEditing(null);
            onChanged(message);
          }}
        />
      )}
    </>
  );
}

interface ReceiverDialogProps {
  /** The receiver to edit; null adds one. */
  receiver: ReceiverJson | null;
  onClose: () => void;
  onDone: (message: AlertMessage) => void;
}

function ReceiverDialog({ receiver, onClose, onDone }: ReceiverDialogProps) {
  const [name, setName] = useState(receiver?.name ?? '');
  const [host, setHost] = useState(receiver?.host ?? '');
  const [port, setPort] = useState(receiver ? String(receiver.port) : '');
  const [events, setEvents] = useState<Hl7EventCode[]>(receiver?.events ?? []);
  const toggle = (event: Hl7EventCode) =>
    setEvents((was) => (was.includes(event) ? was.filter((e) => e !== event) : [...was, event]));

  const send = async () => {
    const fields = { name, host, port: /^\d+$/.test(port) ? Number(port) : port, events };
    if (receiver) {
      await apiPut(endpoints.hl7.receiver(receiver.id), { ...fields, active: receiver.active });
      return `${name} saved`;
    }
    await apiPost(endpoints.hl7.receivers, fields);
    return `${name} added`;
  };

  return (
    <ActionDialog
      title={receiver ? `Edit ${receiver.name}` : 'Add receiver'}
      label={receiver ? 'Edit receiver' : 'New receiver'}
      submitLabel={receiver ? 'Save' : 'Add receiver'}
      send={send}
      failureText="The receiver could not be saved"
      onClose={onClose}
      onDone={onDone}
    >
      {(errors) => (
        <>
          <Field label="Name" errors={errors.name} hint="Sent as MSH-5, the receiving application">
            {(control) => <input {...control} required value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <div className="form-row">
            <Field label="Host" errors={errors.host}>
              {(control) => <input {...control} required value={host} onChange={(e) => setHost(e.target.value)} />}
            </Field>
            <Field label="Port" errors={errors.port}>
              {(control) => (
                <input
                  {...control}
                  required
                  inputMode="numeric"
                  value={port}
                  onChange={(e) => setPort(e.target.value)}
                />
              )}
            </Field>
          </div>
          <fieldset className="choice-group" aria-describedby={errors.events ? 'receiver-events-error' : undefined}>
            <legend>Events</legend>
            {EVENTS.map((event) => (
              <label key={event}>
                <input type="checkbox" checked={events.includes(event)} onChange={() => toggle(event)} />{' '}
                {EVENT_WORDS[event]}
              </label>
            ))}
            {errors.events && (
              <p className="field-error" id="receiver-events-error">
                Events {errors.events.join(' ')}
              </p>
            )}
          </fieldset>
        </>
      )}
    </ActionDialog>
  );
}
