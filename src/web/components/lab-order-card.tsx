/**
 * A doctor's lab order (Results to review, a patient's results): its results and their corrections, its critical
 * values to acknowledge, the review with an optional comment, the release to the patient and the printable report.
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { apiPost } from '../api.ts';
import { formatDateTime } from '../format.ts';
import { endpoints, routes, withId } from '../paths.ts';
import { success, type AlertMessage } from './alert.tsx';
import { Field } from './field.tsx';
import { PRIORITY_LABELS, REPORT_STATUS_LABELS, valueText, type LabOrderJson } from './lab-labels.ts';
import { LabResultsTable } from './lab-results-table.tsx';
import { StatusBadge } from './status-badge.tsx';
import { failureFor } from './use-alert.ts';
import { useSubmit } from './use-submit.ts';

interface LabOrderCardProps {
  order: LabOrderJson;
  /** The order as a step left it, or undefined when it must be read again (an acknowledgement). */
  onChanged: (order: LabOrderJson | undefined) => void;
  setAlert: (message: AlertMessage) => void;
  /** Names the patient, with a link to their results (Results to review lists many patients). */
  showPatient?: boolean;
}

const SIGNED_OFF = ['final', 'corrected', 'amended'];

export function LabOrderCard({ order, onChanged, setAlert, showPatient = false }: LabOrderCardProps) {
  const { busy, run } = useSubmit(`Order ${order.order_number}`);
  const [comment, setComment] = useState('');
  const signedOff = SIGNED_OFF.includes(order.report.status);
  const open = order.report.critical_alerts.filter((a) => a.acknowledged_at === null);
  const headingId = `lab-order-${order.id}`;

  const step = (what: string, done: string, send: () => Promise<LabOrderJson | undefined>) =>
    run(
      async () => {
        onChanged(await send());
        setAlert(success(done));
      },
      (error) => setAlert(failureFor(error, `${what} failed`)),
    );

  const acknowledge = (alertId: number) =>
    step('Acknowledging', 'Critical result acknowledged', async () => {
      await apiPost(endpoints.lab.acknowledge(alertId));
      return undefined;
    });
  const review = (event: FormEvent) => {
    event.preventDefault();
    return step('Marking reviewed', 'Results marked reviewed', () =>
      apiPost<LabOrderJson>(endpoints.lab.orderStep(order.id, 'review'), comment.trim() ? { comment } : {}),
    );
  };
  const release = () =>
    step('Releasing', 'Results released to the patient', () =>
      apiPost<LabOrderJson>(endpoints.lab.orderStep(order.id, 'release')),
    );

  return (
    <article className="card lab-order" aria-labelledby={headingId}>
      <header className="lab-order-header">
        <h2 id={headingId}>
          {showPatient ? `${order.patient.name} · ` : ''}Order {order.order_number}
        </h2>
        <StatusBadge status={order.priority} label={PRIORITY_LABELS[order.priority]} />
        <StatusBadge status={`report-${order.report.status}`} label={REPORT_STATUS_LABELS[order.report.status]} />
      </header>
      <p className="muted">
        Ordered {formatDateTime(order.ordered_at)} by {order.doctor.name}
        {order.note ? ` — ${order.note}` : ''}
      </p>
      {open.map((a) => {
        const item = order.items.find((i) => i.result?.id === a.observation_id);
        return (
          <div key={a.id} className="lab-alert" role="note">
            <p>
              <strong>Critical result:</strong> {item?.name}{' '}
              {item?.result ? `${valueText(item.result)} (${item.result.interpretation})` : ''}, raised{' '}
              {formatDateTime(a.raised_at)}
            </p>
            <button
              type="button"
              className="button button-small button-danger"
              disabled={busy}
              onClick={() => void acknowledge(a.id)}
            >
              Acknowledge critical result
            </button>
          </div>
        );
      })}
      <LabResultsTable order={order} caption={`Results of order ${order.order_number}`} />
      {order.report.reviews.length > 0 && (
        <ul className="lab-reviews">
          {order.report.reviews.map((r) => (
            <li key={r.reviewed_at}>
              Reviewed by {r.doctor} {formatDateTime(r.reviewed_at)}
              {r.comment ? `: ${r.comment}` : ''}
            </li>
          ))}
        </ul>
      )}
      <div className="lab-order-actions">
        {signedOff && (
          <form className="lab-review" onSubmit={review} aria-label={`Review order ${order.order_number}`}>
            <Field label="Review comment (optional)">
              {(control) => (
                <input {...control} value={comment} maxLength={2000} onChange={(e) => setComment(e.target.value)} />
              )}
            </Field>
            <button type="submit" className="button button-small button-primary" disabled={busy}>
              Mark reviewed
            </button>
          </form>
        )}
        {signedOff &&
          (order.report.visible_to_patient ? (
            <span className="muted">Released to the patient</span>
          ) : (
            <button type="button" className="button button-small" disabled={busy} onClick={() => void release()}>
              Release to patient
            </button>
          ))}
        <Link href={withId(routes.doctor.labReport, order.id)} className="button button-small">
          Printable report
        </Link>
        {showPatient && (
          <Link href={withId(routes.doctor.patientResults, order.patient.id)} className="button button-small">
            All results of {order.patient.name}
          </Link>
        )}
      </div>
    </article>
  );
}
