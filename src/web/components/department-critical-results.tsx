/**
 * On a doctor's Results to review: the critical values of their department that the doctors who ordered them left
 * unacknowledged for 30 minutes, each for this doctor to acknowledge. Nothing shows when there are none.
 */
import { apiPost } from '../api.ts';
import { formatDateTime } from '../format.ts';
import { endpoints } from '../paths.ts';
import { success, type AlertMessage } from './alert.tsx';
import { FLAG_LABELS, valueText, type EscalatedAlertJson } from './lab-labels.ts';
import { ALL, failureFor } from './use-alert.ts';
import { useLoaded } from './use-fetched.ts';
import { useSubmit } from './use-submit.ts';
import type { ListJson } from '../../http/answers.ts';

interface Props {
  setAlert: (message: AlertMessage) => void;
  reloadKey: number;
  onChanged: () => void;
}

export function DepartmentCriticalResults({ setAlert, reloadKey, onChanged }: Props) {
  const { loaded } = useLoaded<ListJson<'alerts', EscalatedAlertJson>>(
    endpoints.lab.departmentCriticals,
    "The department's critical results",
    ALL,
    reloadKey,
  );
  const { busy, run } = useSubmit('Acknowledge');
  if (loaded.state !== 'loaded' || loaded.value.alerts.length === 0) return null;
  const acknowledge = (a: EscalatedAlertJson) =>
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
        {loaded.value.alerts.map((a) => (
          <li key={a.id} className="lab-alert">
            <p>
              <strong>
                {a.patient.name}: {a.name} {valueText(a)} ({FLAG_LABELS[a.interpretation]})
              </strong>{' '}
              — order {a.order_number} by {a.ordering_doctor}, raised {formatDateTime(a.raised_at)}
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
