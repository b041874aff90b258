/**
 * On a doctor's Results to review: the critical values of their department that the doctors who ordered them left
 * unacknowledged for 30 minutes, each for this doctor to acknowledge (their own stand on their orders below).
 * Nothing shows when there are none.
 */
import { apiPost } from '../api.ts';
import { formatDateTime } from '../format.ts';
import { endpoints } from '../paths.ts';
import { success, type AlertMessage } from './alert.tsx';
import { FLAG_LABELS, valueText, type StandingAlertJson } from './lab-labels.ts';
import { failureFor } from './use-alert.ts';
import { useLoaded } from './use-fetched.ts';
import { useSubmit } from './use-submit.ts';

interface Props {
  setAlert: (message: AlertMessage) => void;
  reloadKey: number;
  onChanged: () => void;
}

export function DepartmentCriticalResults({ setAlert, reloadKey, onChanged }: Props) {
  const { loaded } = useLoaded<{ alerts: StandingAlertJson[] }>(
    endpoints.lab.criticalAlerts,
    "The department's critical results",
    undefined,
    reloadKey,
  );
  const { busy, run } = useSubmit('Acknowledge');
  const alerts = loaded.state === 'loaded' ? loaded.value.alerts.filter((a) => !a.yours) : [];
  if (alerts.length === 0) return null;
  const acknowledge = (a: StandingAlertJson) =>
    run(
      async () => {
        await apiPost(endpoints.lab.acknowledge(a.id));
        setAlert(success(`Critical result of ${a.patient.name} acknowledged`));
        onChanged();
      },
      (error) => setAlert(failureFor(error, 'Acknowledging failed')),
    );
  return (
    <section className="card lab-department-alerts" aria-labelledby="department-critical-heading">
      <h2 id="department-critical-heading">Your department's critical results</h2>
      <p className="muted">
        Left unacknowledged for 30 minutes by the doctor who ordered them: any of you may acknowledge.
      </p>
      <ul>
        {alerts.map((a) => (
          <li key={a.id} className="lab-alert">
            <p>
              <strong>
                {a.patient.name}: {a.test} {valueText(a)}
                {a.interpretation && ` (${FLAG_LABELS[a.interpretation]})`}
              </strong>{' '}
              — order {a.order_number} by {a.ordering_doctor.name}, raised {formatDateTime(a.raised_at)}
              {a.bed && `, ${a.bed}`}
            </p>
            <button
              type="button"
              className="button button-small button-danger"
              disabled={busy}
              aria-label={`Acknowledge critical result of ${a.patient.name}, order ${a.order_number}`}
              onClick={() => void acknowledge(a)}
            >
              Acknowledge
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
