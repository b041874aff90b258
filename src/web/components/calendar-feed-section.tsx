/**
 * A doctor's or patient's private calendar address: made, shown once to copy (like an API token), replaced when
 * it may have leaked, or turned off.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { LoadingStatus } from './list-states.tsx';
import { ApiError, apiDelete, apiGet, apiPost } from '../api.ts';
import { failure, success, type AlertMessage } from './alert.tsx';
import { useConfirm } from './confirm.tsx';
import { Field } from './field.tsx';
import { useSubmit } from './use-submit.ts';
import { endpoints } from '../paths.ts';
import { formatDateTime } from '../format.ts';
import type { CalendarFeedJson } from '../../domain/notifications/notifications-shapes.ts';

interface CalendarFeedSectionProps {
  /** A doctor's feed names their patients, so its warning says so. */
  namesPatients: boolean;
  setAlert: (message: AlertMessage | null) => void;
}

const complain = (setAlert: (m: AlertMessage) => void, fallback: string) => (error: unknown) =>
  setAlert(failure(error instanceof ApiError ? error.message : fallback));

export function CalendarFeedSection({ namesPatients, setAlert }: CalendarFeedSectionProps) {
  const [status, setStatus] = useState<CalendarFeedJson | null>(null);
  const [url, setUrl] = useState<string | null>(null);
  const confirm = useConfirm();
  const { busy, run } = useSubmit('calendar feed');

  useEffect(() => {
    apiGet<CalendarFeedJson>(endpoints.calendarFeed)
      .then(setStatus)
      .catch((error: unknown) => console.error('calendar feed status fetch failed', error));
  }, []);

  // Drawn at once with the button's room kept, so the sections below do not move when the status comes.
  if (!status)
    return (
      <CalendarFeedFrame namesPatients={namesPatients}>
        <div className="form-actions" aria-hidden="true">
          <span className="skeleton skeleton-button" />
        </div>
        <LoadingStatus what="Calendar feed" hidden />
      </CalendarFeedFrame>
    );

  const make = async () => {
    if (
      status.active &&
      !(await confirm({
        title: 'Make a new calendar address?',
        message: 'The address you have now stops working; calendars that use it need the new one.',
        confirmLabel: 'Make a new address',
      }))
    )
      return;
    await run(
      async () => {
        const made = await apiPost<{ url: string; created_at: string }>(endpoints.calendarFeed);
        setUrl(made.url);
        setStatus({ active: true, created_at: made.created_at });
        setAlert(null);
      },
      complain(setAlert, 'The calendar address could not be made.'),
    );
  };
  const turnOff = async () => {
    if (
      !(await confirm({
        title: 'Turn the calendar feed off?',
        message: 'Its address stops working; calendars that use it stop showing your appointments.',
        confirmLabel: 'Turn off',
      }))
    )
      return;
    await run(
      async () => {
        await apiDelete(endpoints.calendarFeed);
        setUrl(null);
        setStatus({ active: false, created_at: null });
        setAlert(success('The calendar feed is off.'));
      },
      complain(setAlert, 'The calendar feed could not be turned off.'),
    );
  };
  const copy = async () => {
    try {
      // The clipboard is there only on HTTPS and localhost; elsewhere the address is selected to copy by hand.
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(url ?? '');
      setAlert(success('The calendar address is copied.'));
    } catch {
      setAlert(failure('Copying did not work here: select the address and copy it yourself.'));
    }
  };

  return (
    <CalendarFeedFrame namesPatients={namesPatients}>
      {url ? (
        <Field
          label="Your calendar address"
          hint={`Copy it now: it is shown only this once. Anyone who has it can see your appointments${namesPatients ? ' and your patients’ names' : ''}, so keep it to yourself.`}
        >
          {(control) => (
            <input {...control} type="text" readOnly value={url} onFocus={(event) => event.currentTarget.select()} />
          )}
        </Field>
      ) : (
        status.active &&
        status.created_at && (
          <p>
            On since {formatDateTime(status.created_at)}. The address was shown once, when it was made; make a new one
            if you lost it or someone else may have it.
          </p>
        )
      )}
      <div className="form-actions">
        {url && (
          <button type="button" className="button button-primary" onClick={() => void copy()}>
            Copy address
          </button>
        )}
        <button
          type="button"
          className={status.active ? 'button' : 'button button-primary'}
          disabled={busy}
          onClick={() => void make()}
        >
          {status.active ? 'Make a new address' : 'Make a calendar address'}
        </button>
        {status.active && (
          <button type="button" className="button button-danger" disabled={busy} onClick={() => void turnOff()}>
            Turn off
          </button>
        )}
      </div>
    </CalendarFeedFrame>
  );
}

function CalendarFeedFrame({ namesPatients, children }: { namesPatients: boolean; children: ReactNode }) {
  return (
    <section className="card account-section" aria-labelledby="calendar-feed-heading">
      <h2 id="calendar-feed-heading">Calendar feed</h2>
      <p>
        Subscribe to {namesPatients ? 'your appointments' : 'your visits'} in Google Calendar, Apple Calendar or Outlook
        with a private address; your calendar keeps them up to date.
      </p>
      {children}
    </section>
  );
}
