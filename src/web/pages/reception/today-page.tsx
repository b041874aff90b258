import { useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { AppointmentStatus } from '../../../domain/scheduling/scheduling.ts';
import { Alert, failure } from '../../components/alert.tsx';
import { DeskAppointments } from '../../components/desk-appointments.tsx';
import { Field } from '../../components/field.tsx';
import { NamedSelect } from '../../components/named-select.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { VisitsToMove } from '../../components/visits-to-move.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useAllRows } from '../../components/use-all-rows.ts';
import { useLoaded } from '../../components/use-fetched.ts';
import { formatDay } from '../../format.ts';
import { endpoints } from '../../paths.ts';
import { DaySheet, visitsOfDay } from './day-sheet.tsx';
import { useClinic } from '../../components/printout.tsx';
import type { DeskAppointmentJson, DeskDayJson } from '../../../domain/scheduling/scheduling-shapes.ts';
import type { Doctor } from '../../../domain/catalogue/catalogue-shapes.ts';

/** The desk's words for where each visit of the day stands. */
const COUNTED: [AppointmentStatus, string][] = [
  ['scheduled', 'Not arrived'],
  ['checked_in', 'Waiting'],
  ['completed', 'Seen'],
  ['no_show', 'No-show'],
  ['cancelled', 'Cancelled'],
];

const labelOf = (status: AppointmentStatus) => COUNTED.find(([counted]) => counted === status)?.[1] ?? status;

/** The status the URL filters the day by, if it names one the counts offer. */
const shownStatus = (value: string | null): AppointmentStatus | undefined =>
  COUNTED.find(([counted]) => counted === value && counted !== 'cancelled')?.[0];

/**
 * A day at the front desk (today unless the URL names another), of every doctor or one: how many visits stand
 * where (each count shows only its visits), each visit to check in, mark a no-show or undo either, a line at the
 * time it is now, the cancelled ones folded away, and the day's list to print, one page per doctor. The whole day
 * is one compact table, so a desk sees fifteen visits and more at once.
 */
export default function TodayPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const search = useSearch();
  const [location, navigate] = useLocation();
  const params = new URLSearchParams(search);
  const date = params.get('date') ?? '';
  const doctorId = params.get('doctor_id') ?? '';
  const status = shownStatus(params.get('status'));
  const doctors = useAllRows<Doctor>(endpoints.doctors, 'doctors');
  const { loaded, retry } = useLoaded<DeskDayJson>(endpoints.desk.day, "the desk's day", {
    date: date || undefined,
    doctor_id: doctorId || undefined,
  });
  const summary = loaded.state === 'loaded' ? loaded.value : null;
  const [showCancelled, setShowCancelled] = useState(false);
  const [sheet, setSheet] = useState<{ of: string; visits: DeskAppointmentJson[] } | null>(null);
  const shown = `${date} ${doctorId}`;

  const show = (next: { date?: string; doctorId?: string; status?: string }) => {
    const query = new URLSearchParams(search);
    for (const [name, value] of [
      ['date', next.date ?? date],
      ['doctor_id', next.doctorId ?? doctorId],
      ['status', next.status ?? status ?? ''],
    ] as const) {
      if (value) query.set(name, value);
      else query.delete(name);
    }
    const text = query.toString();
    navigate(text ? `${location}?${text}` : location, { replace: true });
  };

  // The list prints once it is there under the clinic's letterhead.
  const clinic = useClinic();
  useEffect(() => {
    if (sheet?.of === shown && clinic) window.print();
  }, [sheet, shown, clinic]);

  const printDay = async () => {
    try {
      setSheet({ of: shown, visits: await visitsOfDay(date, doctorId) });
    } catch (error) {
      console.error('day list fetch failed', error);
      setAlert(failure('The day list could not be loaded. Please try again.'));
    }
  };

  const onToday = summary !== null && summary.date === summary.today;
  const day = { date, doctorId };
  return (
    <div className="desk-day">
      <div className="desk-day-screen">
        <PageHeader title="Today's Appointments">
          <VisitsToMove setAlert={setAlert} />
          <button type="button" className="button button-small" onClick={printDay}>
            Print day list
          </button>
        </PageHeader>
        <Alert message={alert} onDismiss={dismiss} />
        <div className="desk-day-controls">
          {/* biome-ignore lint/a11y/useSemanticElements: a group of day buttons, not a form's fieldset */}
          <div className="day-nav" role="group" aria-label="Choose the day">
            <button
              type="button"
              className="button button-small"
              disabled={!summary}
              onClick={() => summary && show({ date: summary.previous })}
            >
              {onToday ? 'Yesterday' : 'Previous day'}
            </button>
            <button
              type="button"
              className="button button-small"
              aria-pressed={onToday}
              onClick={() => show({ date: '' })}
            >
              Today
            </button>
            <button
              type="button"
              className="button button-small"
              disabled={!summary}
              onClick={() => summary && show({ date: summary.next })}
            >
              {onToday ? 'Tomorrow' : 'Next day'}
            </button>
          </div>
          <Field label="Date">
            {(control) => (
              <input
                {...control}
                type="date"
                value={summary?.date ?? date}
                onChange={(e) => e.target.value && show({ date: e.target.value })}
              />
            )}
          </Field>
          <Field label="Doctor">
            {(control) => (
              <NamedSelect
                control={control}
                placeholder="All doctors"
                options={doctors}
                value={doctorId}
                onChange={(id) => show({ doctorId: id })}
              />
            )}
          </Field>
        </div>
        {/* Standing before the day's summary arrives, so the list below does not move when it does. */}
        <div className="day-summary">
          <h2>
            {summary ? formatDay(summary.date) : '\u00a0'}
            {onToday ? ' (today)' : ''}
          </h2>
          {/* biome-ignore lint/a11y/useSemanticElements: a group of toggle buttons, not a form's fieldset */}
          <div className="day-counts" role="group" aria-label="Show visits by status">
            {COUNTED.filter(([counted]) => counted !== 'cancelled').map(([counted, label]) => (
              <button
                key={counted}
                type="button"
                className="day-count-filter"
                aria-pressed={status === counted}
                onClick={() => show({ status: status === counted ? '' : counted })}
              >
                <StatusBadge status={counted} label={label} />{' '}
                <span className="day-count">{summary?.counts[counted] ?? '–'}</span>
              </button>
            ))}
          </div>
        </div>
        <DeskAppointments
          label={status ? `The day's appointments: ${labelOf(status)}` : "The day's appointments"}
          day={{ ...day, status }}
          nowOn={onToday}
          setAlert={setAlert}
          onChanged={retry}
          after={
            <details className="cancelled-visits" onToggle={(event) => setShowCancelled(event.currentTarget.open)}>
              <summary>Cancelled visits ({summary?.counts.cancelled ?? '–'})</summary>
              {showCancelled && (
                <DeskAppointments label="Cancelled visits" day={{ ...day, status: 'cancelled' }} setAlert={setAlert} />
              )}
            </details>
          }
        />
      </div>
      {sheet?.of === shown && clinic && <DaySheet date={summary?.date ?? date} visits={sheet.visits} clinic={clinic} />}
    </div>
  );
}
