/**
 * Every e-mail the clinic sent or would send, newest first: who it went to, how each attempt went and what it
 * said, so an admin sees why a patient got nothing, and a new site what would go out.
 */
import { useCallback, useEffect, useState } from 'react';
import type { MessageStatus } from '../../../domain/notifications/ports.ts';
import { apiGet, fetchList, type ListQuery } from '../../api.ts';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { capitalize, formatDateTime } from '../../format.ts';
import { endpoints } from '../../paths.ts';
import type { MessageJson } from '../../../domain/notifications/notifications-shapes.ts';

const STATUS_LABELS: Record<MessageStatus, string> = {
  pending: 'Pending',
  sending: 'Sending',
  sent: 'Sent',
  not_sent: 'Not sent',
  dead: 'Failed',
  cancelled: 'Withdrawn',
  skipped: 'Skipped',
};
const STATUSES = Object.keys(STATUS_LABELS) as MessageStatus[];

const statusLabel = (status: string) => STATUS_LABELS[status as MessageStatus] ?? status;
const kindLabel = (kind: string) => capitalize(kind.replaceAll('_', ' '));
const time = (iso: string | null) => (iso ? formatDateTime(iso) : '—');

function MessageStatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-message-${status}`}>{statusLabel(status)}</span>;
}

export default function AdminMessagesPage() {
  const [status, setStatus] = useState<MessageStatus | ''>('');
  const [viewing, setViewing] = useState<MessageJson | null>(null);
  const [unsent, setUnsent] = useState(0);

  useEffect(() => {
    apiGet<{ total: number }>(endpoints.admin.messages, { status: 'not_sent', per_page: 1 })
      .then((answer) => setUnsent(answer.total))
      .catch((error: unknown) => console.error('unsent message count fetch failed', error));
  }, []);

  const load = useCallback(
    (query: ListQuery, signal: AbortSignal) =>
      fetchList<MessageJson>(endpoints.admin.messages, 'messages', { ...query, status: status || undefined }, signal),
    [status],
  );

  const columns: Column<MessageJson>[] = [
    { header: 'Recipient', text: (m) => m.recipient },
    { header: 'Subject', text: (m) => m.subject },
    { header: 'Kind', cell: (m) => kindLabel(m.kind), priority: 3 },
    { header: 'Status', cell: (m) => <MessageStatusBadge status={m.status} /> },
    { header: 'Attempts', cell: (m) => m.attempts, priority: 3 },
    { header: 'Last error', text: (m) => m.last_error ?? '', priority: 2 },
    { header: 'Created', cell: (m) => time(m.created_at), priority: 2 },
    { header: 'Sent', cell: (m) => time(m.sent_at), priority: 3 },
  ];
  const actions = (m: MessageJson) => [
    { label: 'View', name: `View message ${m.subject} to ${m.recipient}`, onSelect: () => setViewing(m) },
  ];

  const filter = (
    <>
      <label htmlFor="message-status">Status</label>
      <select
        id="message-status"
        value={status}
        onChange={(event) => setStatus(event.target.value as MessageStatus | '')}
      >
        <option value="">All</option>
        {STATUSES.map((s) => (
          <option key={s} value={s}>
            {STATUS_LABELS[s]}
          </option>
        ))}
      </select>
    </>
  );

  return (
    <>
      <PageHeader title="Messages" />
      {unsent > 0 && (
        <div className="alert alert-info" role="note">
          <p>
            {unsent === 1 ? 'One message was' : `${unsent} messages were`} not sent because no mail server is
            configured. Set <code>SMTP_URL</code> (and <code>MAIL_FROM</code>) and restart Medora to send e-mail;
            messages marked “Not sent” stay as they are.
          </p>
        </div>
      )}
      <DataTable
        label="Messages"
        columns={columns}
        load={load}
        rowKey={(m) => m.id}
        emptyText="No messages found."
        filters={filter}
        filterKey={status}
        actions={actions}
      />
      <Dialog
        open={viewing !== null}
        title={viewing?.subject ?? 'Message'}
        onClose={() => setViewing(null)}
        className="message-dialog"
      >
        {viewing && (
          <>
            <dl className="details">
              <dt>To</dt>
              <dd>{viewing.recipient}</dd>
              <dt>Kind</dt>
              <dd>{kindLabel(viewing.kind)}</dd>
              <dt>Status</dt>
              <dd>
                <MessageStatusBadge status={viewing.status} /> after {viewing.attempts}{' '}
                {viewing.attempts === 1 ? 'attempt' : 'attempts'}
              </dd>
              {viewing.last_error && (
                <>
                  <dt>Last error</dt>
                  <dd>{viewing.last_error}</dd>
                </>
              )}
              <dt>Created</dt>
              <dd>{time(viewing.created_at)}</dd>
              <dt>Sent</dt>
              <dd>{time(viewing.sent_at)}</dd>
              <dt>Attachments</dt>
              <dd>{viewing.attachments.length > 0 ? viewing.attachments.join(', ') : 'None'}</dd>
            </dl>
            <section aria-label="Message text">
              <pre className="message-body">{viewing.body}</pre>
            </section>
          </>
        )}
      </Dialog>
    </>
  );
}
