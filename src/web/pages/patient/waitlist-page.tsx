/** The patient's waitlist entries: which doctor, which days, a time held for them now, and leaving an entry. */
import { useState } from 'react';
import { Link } from 'wouter';
import type { WaitlistEntryJson } from '../../../domain/scheduling/waitlist-use-cases.ts';
import { apiDelete, listAt } from '../../api.ts';
import { Alert, success } from '../../components/alert.tsx';
import { useConfirm } from '../../components/confirm.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import type { RowAction } from '../../components/row-actions.tsx';
import { serverFailure, useAlert } from '../../components/use-alert.ts';
import { WaitlistForm } from '../../components/waitlist-form.tsx';
import { formatDateTime, formatDay, formatDayTime, formatTime } from '../../format.ts';
import { endpoints, routes } from '../../paths.ts';

const loadEntries = listAt<WaitlistEntryJson>(endpoints.patient.waitlist, 'entries');

const days = (e: WaitlistEntryJson) =>
  e.from_date === e.to_date ? formatDay(e.from_date) : `${formatDay(e.from_date)} – ${formatDay(e.to_date)}`;

const offerText = (offer: NonNullable<WaitlistEntryJson['offer']>) =>
  `${formatDay(offer.date)} at ${formatTime(offer.start_time)}, held for you until ${formatDayTime(offer.hold_until)} — see the e-mail we sent you to accept it`;

export default function PatientWaitlistPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const confirm = useConfirm();

  const leave = async (entry: WaitlistEntryJson) => {
    const confirmed = await confirm({
      title: 'Leave the waitlist',
      message: `Are you sure you want to leave the waitlist of ${entry.doctor_name} for ${days(entry)}?`,
      confirmLabel: 'Leave',
      cancelLabel: 'Stay',
    });
    if (!confirmed) return;
    try {
      await apiDelete(endpoints.patient.waitlistEntry(entry.id));
      setAlert(success('You left the waitlist'));
      setReloadKey((key) => key + 1);
    } catch (error) {
      setAlert(serverFailure(error, 'Failed to leave the waitlist'));
    }
  };

  const columns: Column<WaitlistEntryJson>[] = [
    { header: 'Doctor', text: (e) => e.doctor_name },
    { header: 'Days', cell: days },
    { header: 'Joined', cell: (e) => formatDateTime(e.joined_at), priority: 3 },
    { header: 'Status', text: (e) => (e.offer ? offerText(e.offer) : 'Waiting for a free time') },
  ];
  const actions = (e: WaitlistEntryJson): RowAction[] => [
    { label: 'Leave', onSelect: () => void leave(e), tone: 'danger' },
  ];

  return (
    <>
      <PageHeader title="Waitlist" />
      <Alert message={alert} onDismiss={dismiss} />
      <p>
        When a time with the doctor frees up on one of your days, the first patient in line gets an e-mail that holds it
        for them for a while. You can also join from a full day on{' '}
        <Link href={routes.patient.book}>Book Appointment</Link>.
      </p>
      <WaitlistForm
        title="Join a waitlist"
        path={endpoints.patient.waitlist}
        joinedText="You are on the waitlist. If a time frees up, we will e-mail you."
        onJoined={() => setReloadKey((key) => key + 1)}
      />
      <DataTable
        label="Your waitlist"
        columns={columns}
        load={loadEntries}
        rowKey={(e) => e.id}
        pageSize={10}
        emptyText="You are not on any waitlist."
        reloadKey={reloadKey}
        actions={actions}
      />
    </>
  );
}
