/**
 * The doctor's day: today's visits in time order, each with its patient and status, and the record form for
 * the visits that can be recorded now; or the week around a day. The day and view live in the URL, so a reload
 * or the back button keeps them.
 */
import { useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import type { AgendaView } from '../../../domain/scheduling/scheduling.ts';
import { apiGet } from '../../api.ts';
import { RequestAdmissionDialog } from '../../components/admission-dialogs.tsx';
import { Alert, success } from '../../components/alert.tsx';
import { useCriticalResultsNotice } from '../../components/critical-results-notice.tsx';
import { OrderTestsDialog } from '../../components/order-tests-dialog.tsx';
import { LoadFailure, LoadingStatus } from '../../components/list-states.tsx';
import { useNews2Alerts } from '../../components/news2-alerts.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { PrescribeDialog } from '../../components/prescribe-dialog.tsx';
import { RecordDialog } from '../../components/record-dialog.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useRequest } from '../../components/use-request.ts';
import { formatDay, formatTime } from '../../format.ts';
import { endpoints, routes, withId } from '../../paths.ts';
import type { AgendaJson, AgendaVisitJson } from '../../../domain/scheduling/scheduling-shapes.ts';

/** Rows the skeleton holds while the first answer is on its way: about a morning's visits. */
const SKELETON_ROWS = 4;

export default function AgendaPage() {
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const date = search.get('date') ?? undefined;
  const view: AgendaView = search.get('view') === 'week' ? 'week' : 'day';
  const [reloadKey, setReloadKey] = useState(0);
  const [recording, setRecording] = useState<AgendaVisitJson | null>(null);
  const [admitting, setAdmitting] = useState<AgendaVisitJson | null>(null);
  const [ordering, setOrdering] = useState<AgendaVisitJson | null>(null);
  const [prescribing, setPrescribing] = useState<AgendaVisitJson | null>(null);
  const { alert, setAlert, dismiss } = useAlert();
  const {
    answer: agenda,
    loading,
    failed,
    retry,
  } = useRequest('Agenda', JSON.stringify([date, view, reloadKey]), (signal) =>
    apiGet<AgendaJson>(endpoints.doctor.agenda, { date, view }, signal),
  );

  const show = (to: { date?: string; view: AgendaView }) => {
    const query = new URLSearchParams();
    if (to.date) query.set('date', to.date);
    if (to.view === 'week') query.set('view', 'week');
    const text = query.toString();
    navigate(text ? `${routes.doctor.agenda}?${text}` : routes.doctor.agenda);
  };
  const shown = agenda?.date ?? date;
  const lab = useCriticalResultsNotice();
  const news2 = useNews2Alerts();
  // The notices stand above the day: they show with it, once all three answers are in, so none pushes it down.
  const noticesIn = lab.settled && news2.settled;

  return (
    <>
      <PageHeader title={agenda ? titleOf(agenda) : 'My Day'}>
        {/* biome-ignore lint/a11y/useSemanticElements: a group of toggle buttons, not a form's fieldset */}
        <div className="agenda-views" role="group" aria-label="View">
          {(['day', 'week'] as const).map((each) => (
            <button
              key={each}
              type="button"
              className="button button-small"
              aria-pressed={view === each}
              onClick={() => show({ date: shown, view: each })}
            >
              {each === 'day' ? 'Day' : 'Week'}
            </button>
          ))}
        </div>
      </PageHeader>
      <nav className="agenda-nav" aria-label={view === 'day' ? 'Days' : 'Weeks'}>
        <button
          type="button"
          className="button button-small"
          disabled={!agenda}
          onClick={() => agenda && show({ date: agenda.previous, view })}
        >
          ‹ Previous {view}
        </button>
        <button
          type="button"
          className="button button-small"
          disabled={!agenda || agenda.days.some((day) => day.date === agenda.today)}
          onClick={() => show({ view })}
        >
          Today
        </button>
        <button
          type="button"
          className="button button-small"
          disabled={!agenda}
          onClick={() => agenda && show({ date: agenda.next, view })}
        >
          Next {view} ›
        </button>
      </nav>
      <Alert message={alert} onDismiss={dismiss} />
      {(agenda || failed) && noticesIn && (
        <>
          {lab.notice}
          {news2.card}
        </>
      )}
      {failed ? (
        <div className="card">
          <LoadFailure what="Your agenda" onRetry={retry} />
        </div>
      ) : !agenda || loading || !noticesIn ? (
        <AgendaSkeleton days={view === 'week' ? 7 : 1} />
      ) : (
        <div className={view === 'week' ? 'agenda-week' : 'agenda-day'}>
          {agenda.days.map((day) => (
            <section key={day.date} className="card agenda-card" aria-labelledby={`agenda-${day.date}`}>
              <h2 id={`agenda-${day.date}`}>
                {view === 'week' ? (
                  <Link
                    href={`${routes.doctor.agenda}?date=${day.date}`}
                    aria-current={day.date === agenda.today ? 'date' : undefined}
                  >
                    {formatDay(day.date)}
                  </Link>
                ) : (
                  formatDay(day.date)
                )}
                <span className="muted"> · {visitCount(day.visits.length)}</span>
              </h2>
              {day.time_off.map((t) => (
                <p key={t.id} className="agenda-time-off">
                  {t.kind === 'leave' ? 'On leave' : 'Clinic closed'}
                  {t.start_time && t.end_time ? ` ${formatTime(t.start_time)}–${formatTime(t.end_time)}` : ''}
                  {t.reason ? `: ${t.reason}` : ''}
                </p>
              ))}
              {day.visits.length === 0 ? (
                <p className="muted">No visits.</p>
              ) : (
                <ol className="agenda-visits">
                  {day.visits.map((visit) => (
                    <Visit
                      key={visit.id}
                      visit={visit}
                      onRecord={() => setRecording(visit)}
                      onAdmit={() => setAdmitting(visit)}
                      onOrder={() => setOrdering(visit)}
                      onPrescribe={() => setPrescribing(visit)}
                    />
                  ))}
                </ol>
              )}
            </section>
          ))}
        </div>
      )}
      {recording && (
        <RecordDialog
          appointment={recording}
          onClose={() => setRecording(null)}
          onSaved={() => {
            setRecording(null);
            setAlert(success('Medical record saved successfully'));
            setReloadKey((key) => key + 1);
          }}
        />
      )}
      {ordering && (
        <OrderTestsDialog
          source={{ appointment_id: ordering.id }}
          patientName={ordering.patient_name}
          onClose={() => setOrdering(null)}
          onDone={(message) => {
            setOrdering(null);
            setAlert(message);
          }}
        />
      )}
      {prescribing && (
        <PrescribeDialog
          patient={{ id: prescribing.patient.id, name: prescribing.patient_name }}
          source={{ appointmentId: prescribing.id }}
          onClose={() => setPrescribing(null)}
          onDone={(order) => navigate(withId(routes.doctor.prescription, order.id))}
        />
      )}
      {admitting && (
        <RequestAdmissionDialog
          patient={{ id: admitting.patient.id, name: admitting.patient_name }}
          appointmentId={admitting.id}
          onClose={() => setAdmitting(null)}
          onDone={(message) => {
            setAdmitting(null);
            setAlert(message);
          }}
        />
      )}
    </>
  );
}

interface VisitProps {
  visit: AgendaVisitJson;
  onRecord: () => void;
  onAdmit: () => void;
  onOrder: () => void;
  onPrescribe: () => void;
}

function Visit({ visit, onRecord, onAdmit, onOrder, onPrescribe }: VisitProps) {
  return (
    <li className="agenda-visit">
      <span className="agenda-time">
        {formatTime(visit.start_time)} – {formatTime(visit.end_time)}
      </span>
      <span className="agenda-patient">
        <Link href={withId(routes.doctor.patient, visit.patient.id)}>{visit.patient_name}</Link>
        {visit.room_name && <span className="muted"> · {visit.room_name}</span>}
      </span>
      {/* Checked in at the desk: the patient is in the waiting room. */}
      <StatusBadge status={visit.status} label={visit.status === 'checked_in' ? 'Waiting' : undefined} />
      <span className="agenda-action">
        {visit.can_record ? (
          <button
            type="button"
            className="button button-small button-primary"
            onClick={onRecord}
            aria-label={`Record visit of ${visit.patient_name}, ${formatTime(visit.start_time)}`}
          >
            Record visit
          </button>
        ) : (
          !visit.has_started &&
          visit.status !== 'cancelled' && <span className="muted">From {formatTime(visit.start_time)}</span>
        )}
        {(visit.status === 'checked_in' || visit.status === 'completed') && (
          <button
            type="button"
            className="button button-small"
            onClick={onPrescribe}
            aria-label={`Prescribe for ${visit.patient_name}, ${formatTime(visit.start_time)}`}
          >
            Prescribe
          </button>
        )}
        {(visit.status === 'checked_in' || visit.status === 'completed') && (
          <button
            type="button"
            className="button button-small"
            onClick={onAdmit}
            aria-label={`Request admission of ${visit.patient_name}, ${formatTime(visit.start_time)}`}
          >
            Request admission
          </button>
        )}
        {(visit.status === 'checked_in' || visit.status === 'completed') && (
          <button
            type="button"
            className="button button-small"
            onClick={onOrder}
            aria-label={`Order tests for ${visit.patient_name}, ${formatTime(visit.start_time)}`}
          >
            Order tests
          </button>
        )}
      </span>
    </li>
  );
}

/** Cards of the shape the answer will fill, so nothing moves when it comes. */
function AgendaSkeleton({ days }: { days: number }) {
  return (
    <div className={days > 1 ? 'agenda-week' : 'agenda-day'} aria-busy="true">
      <LoadingStatus what="Your agenda" />
      {Array.from({ length: days }, (_, day) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity and never reorder
        <div key={day} className="card agenda-card" aria-hidden="true">
          <span className="skeleton" />
          {Array.from({ length: days > 1 ? 1 : SKELETON_ROWS }, (_, row) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity and never reorder
            <span key={row} className="skeleton agenda-skeleton-row" />
          ))}
        </div>
      ))}
    </div>
  );
}

function titleOf(agenda: AgendaJson): string {
  const first = agenda.days[0]?.date ?? agenda.date;
  if (agenda.view === 'week') return `Week of ${formatDay(first)}`;
  return agenda.date === agenda.today ? 'Today' : formatDay(agenda.date);
}

const visitCount = (n: number) => (n === 1 ? '1 visit' : `${n} visits`);
