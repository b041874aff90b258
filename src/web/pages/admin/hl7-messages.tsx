/**
 * The HL7 messages each way, newest first, with the acknowledgement of each: those sent (a dead letter resent
 * after a confirm) and those received (shown whole, as they came, with what Medora answered).
 */
import { useCallback, useState } from 'react';
import type { OutboundMessageJson, ReceivedMessageJson } from '../../../domain/interfaces/interfaces-shapes.ts';
import { apiPost, fetchList, type ListQuery } from '../../api.ts';
import { success, type AlertMessage } from '../../components/alert.tsx';
import { useConfirm } from '../../components/confirm.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { failureFor } from '../../components/use-alert.ts';
import { capitalize, formatDateTime } from '../../format.ts';
import { endpoints } from '../../paths.ts';

// Each status a message has, typed against the domain's so neither can drift (the web imports only its types).
const SENT_STATUSES: Record<OutboundMessageJson['status'], true> = {
  pending: true,
  sending: true,
  sent: true,
  dead: true,
};
const RECEIVED_STATUSES: Record<ReceivedMessageJson['status'], true> = {
  processed: true,
  unmatched: true,
  error: true,
};

const time = (iso: string | null) => (iso ? formatDateTime(iso) : '—');
/** Segments end in a carriage return on the wire; one a line on screen. */
const segments = (message: string) => message.replace(/\r\n?/g, '\n').trim();
const ack = (code: string | null) => code ?? '—';

function Hl7StatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge badge-message-${status}`}>{status === 'dead' ? 'Dead letter' : capitalize(status)}</span>
  );
}

function StatusFilter({ id, value, statuses, onChange }: StatusFilterProps) {
  return (
    <>
      <label htmlFor={id}>Status</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">All</option>
        {statuses.map((s) => (
          <option key={s} value={s}>
            {s === 'dead' ? 'Dead letters' : capitalize(s)}
          </option>
        ))}
      </select>
    </>
  );
}
interface StatusFilterProps {
  id: string;
  value: string;
  statuses: readonly string[];
  onChange: (status: string) => void;
}

interface SentProps {
  reloadKey: number;
  onResent: (message: AlertMessage) => void;
}

export function Hl7SentMessages({ reloadKey, onResent }: SentProps) {
  const [status, setStatus] = useState('');
  const [viewing, setViewing] = useState<OutboundMessageJson | null>(null);
  const confirm = useConfirm();
  const load = useCallback(
    (query: ListQuery, signal: AbortSignal) =>
      fetchList<OutboundMessageJson>(
        endpoints.hl7.outbound,
        'messages',
        { ...query, status: status || undefined },
        signal,
      ),
    [status],
  );

  const resend = async (m: OutboundMessageJson) => {
    const message = `Send message ${m.control_id} (${m.event}) to ${m.receiver} again, after the messages queued before it?`;
    if (!(await confirm({ title: 'Resend message', message, confirmLabel: 'Resend' }))) return;
    try {
      await apiPost(endpoints.hl7.resend(m.id));
      onResent(success(`Message ${m.control_id} queued again for ${m.receiver}`));
    } catch (error) {
      console.error('HL7 resend failed', error);
      onResent(failureFor(error, `Failed to resend message ${m.control_id}`));
    }
  };

  const columns: Column<OutboundMessageJson>[] = [
    { header: 'Message', text: (m) => m.control_id },
    { header: 'Event', text: (m) => m.event },
    { header: 'Receiver', text: (m) => m.receiver },
    { header: 'Status', cell: (m) => <Hl7StatusBadge status={m.status} /> },
    { header: 'Acknowledgement', text: (m) => ack(m.ack_code) },
    { header: 'Attempts', cell: (m) => m.attempts, priority: 3 },
    { header: 'Last error', text: (m) => m.last_error ?? '', priority: 3 },
    { header: 'Queued', cell: (m) => time(m.created_at), priority: 2 },
    { header: 'Sent', cell: (m) => time(m.sent_at), priority: 3 },
  ];

  return (
    <>
      <DataTable
        label="Messages sent"
        columns={columns}
        load={load}
        rowKey={(m) => m.id}
        emptyText="No messages sent."
        reloadKey={reloadKey}
        searchable={false}
        filters={
          <StatusFilter
            id="hl7-sent-status"
            value={status}
            statuses={Object.keys(SENT_STATUSES)}
            onChange={setStatus}
          />
        }
        filterKey={status}
        actions={(m) => [
          ...(m.status === 'dead'
            ? [{ label: 'Resend', name: `Resend message ${m.control_id}`, onSelect: () => void resend(m) }]
            : []),
          { label: 'View', name: `View message ${m.control_id}`, onSelect: () => setViewing(m) },
        ]}
      />
      {viewing && (
        <RawMessageDialog
          title={`Message ${viewing.control_id} to ${viewing.receiver}`}
          message={viewing.message}
          ack={viewing.ack}
          onClose={() => setViewing(null)}
        />
      )}
    </>
  );
}

export function Hl7ReceivedMessages({ reloadKey }: { reloadKey: number }) {
  const [status, setStatus] = useState('');
  const [viewing, setViewing] = useState<ReceivedMessageJson | null>(null);
  const load = useCallback(
    (query: ListQuery, signal: AbortSignal) =>
      fetchList<ReceivedMessageJson>(
        endpoints.hl7.received,
        'messages',
        { ...query, status: status || undefined },
        signal,
      ),
    [status],
  );
  const name = (m: ReceivedMessageJson) => m.control_id ?? `#${m.id}`;

  const columns: Column<ReceivedMessageJson>[] = [
    { header: 'Message', text: name },
    { header: 'Type', text: (m) => m.message_type },
    { header: 'From', text: (m) => m.source, priority: 2 },
    { header: 'Status', cell: (m) => <Hl7StatusBadge status={m.status} /> },
    { header: 'Acknowledgement', text: (m) => m.ack_code },
    { header: 'Error', text: (m) => m.error ?? '', priority: 3 },
    { header: 'Received', cell: (m) => time(m.received_at), priority: 2 },
  ];

  return (
    <>
      <DataTable
        label="Messages received"
        columns={columns}
        load={load}
        rowKey={(m) => m.id}
        emptyText="No messages received."
        reloadKey={reloadKey}
        searchable={false}
        filters={
          <StatusFilter
            id="hl7-received-status"
            value={status}
            statuses={Object.keys(RECEIVED_STATUSES)}
            onChange={setStatus}
          />
        }
        filterKey={status}
        actions={(m) => [{ label: 'View', name: `View message ${name(m)}`, onSelect: () => setViewing(m) }]}
      />
      {viewing && (
        <RawMessageDialog
          title={`Message ${name(viewing)} from ${viewing.source}`}
          message={viewing.message}
          ack={viewing.ack}
          onClose={() => setViewing(null)}
        />
      )}
    </>
  );
}

interface RawMessageProps {
  title: string;
  message: string;
  ack: string | null;
  onClose: () => void;
}

/** The message and its acknowledgement as text: React escapes them, nothing in them is markup. */
function RawMessageDialog({ title, message, ack: answer, onClose }: RawMessageProps) {
  return (
    <Dialog open title={title} onClose={onClose} className="message-dialog">
      <section aria-label="Message">
        <h3>Message</h3>
        <pre className="message-body message-body-code">{segments(message)}</pre>
      </section>
      <section aria-label="Acknowledgement">
        <h3>Acknowledgement</h3>
        {answer ? <pre className="message-body message-body-code">{segments(answer)}</pre> : <p>None yet.</p>}
      </section>
    </Dialog>
  );
}
