/**
 * The ward's medication round (MAR): each patient in a bed with their allergies and inpatient orders, today's doses
 * by time (and any still due from before), late ones highlighted; a dose recorded as given, held, refused or
 * missed (with a reason), an as-needed medicine given. Doctors also order medicines here.
 */
import { useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import type { DoseOutcome } from '../../domain/medicines/mar.ts';
import type { DoseJson, MedicationOrderJson, WardMarJson } from '../../domain/medicines/medicines-shapes.ts';
import { apiGet, apiPost } from '../api.ts';
import { role } from '../auth.ts';
import { ActionDialog } from '../components/action-dialog.tsx';
import { Alert, success, type AlertMessage } from '../components/alert.tsx';
import { AllergyBanner } from '../components/allergy-banner.tsx';
import { Field } from '../components/field.tsx';
import { LoadFailure, LoadingStatus } from '../components/list-states.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { PrescribeDialog } from '../components/prescribe-dialog.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import { useAlert } from '../components/use-alert.ts';
import { useFetched } from '../components/use-fetched.ts';
import { useRequest } from '../components/use-request.ts';
import type { BedBoardJson } from '../components/ward.ts';
import { formatDateTime } from '../format.ts';
import { endpoints } from '../paths.ts';

type MarPatient = WardMarJson['patients'][number];
type Recording = { dose: DoseJson; order: MedicationOrderJson; outcome: DoseOutcome } | { order: MedicationOrderJson };

const OUTCOME_LABELS: Record<DoseOutcome, string> = {
  given: 'Give',
  held: 'Hold',
  refused: 'Refused',
  missed: 'Missed',
};

export default function WardMarPage() {
  useSignals();
  const wards = useFetched<BedBoardJson>(endpoints.ward.bedBoard, 'bed board')?.wards ?? [];
  const [chosen, setChosen] = useState('');
  const wardId = chosen || String(wards[0]?.id ?? '');
  const [reloadKey, setReloadKey] = useState(0);
  const { alert, setAlert, dismiss } = useAlert();
  const [recording, setRecording] = useState<Recording | null>(null);
  const [ordering, setOrdering] = useState<MarPatient | null>(null);
  const { answer, failed, retry } = useRequest('MAR', `${wardId} ${reloadKey}`, (signal) =>
    wardId ? apiGet<WardMarJson>(endpoints.medicines.wardMar(wardId), undefined, signal) : Promise.resolve(null),
  );
  const done = (message: AlertMessage) => {
    setRecording(null);
    setOrdering(null);
    setAlert(message);
    setReloadKey((key) => key + 1);
  };

  return (
    <>
      <PageHeader title="Medication round">
        {wards.length > 1 && (
          <label>
            <span className="visually-hidden">Ward</span>
            <select value={wardId} onChange={(e) => setChosen(e.target.value)}>
              {wards.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          </label>
        )}
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      {failed ? (
        <div className="card">
          <LoadFailure what="The medication round" onRetry={retry} />
        </div>
      ) : !answer ? (
        <LoadingStatus what="The medication round" />
      ) : (
        <>
          <p className={answer.late_doses > 0 ? 'alert alert-error' : 'muted'}>
            {answer.ward.name}: {answer.late_doses === 1 ? '1 late dose' : `${answer.late_doses} late doses`}
          </p>
          {answer.patients.length === 0 && <p className="empty">No patients of yours on this ward.</p>}
          {answer.patients.map((p) => (
            <section key={p.admission_id} className="card mar-patient" aria-labelledby={`mar-${p.admission_id}`}>
              <h2 id={`mar-${p.admission_id}`}>
                {p.patient.name} <span className="muted">· {p.bed}</span>
              </h2>
              <AllergyBanner patientId={p.patient.id} editable />
              {role.value === 'doctor' && (
                <button type="button" className="button button-small" onClick={() => setOrdering(p)}>
                  Order medicine
                </button>
              )}
              {p.orders.length === 0 && <p className="muted">No medicines ordered.</p>}
              {p.orders.map(({ order, doses }) => (
                <div key={order.id} className="mar-order">
                  <p>
                    <strong>{order.words}</strong> <StatusBadge status={order.status} />
                  </p>
                  {order.frequency.kind === 'as_needed' && order.status === 'active' && (
                    <button
                      type="button"
                      className="button button-small"
                      onClick={() => setRecording({ order })}
                      aria-label={`Give now: ${order.medicine.label}, ${p.patient.name}`}
                    >
                      Give now
                    </button>
                  )}
                  <ul className="mar-doses">
                    {doses.map((d) => (
                      <li key={d.id} className={d.late ? 'mar-dose mar-dose-late' : 'mar-dose'}>
                        <span>{formatDateTime(d.due_at ?? d.given_at ?? '')}</span>
                        <StatusBadge status={d.status} />
                        {d.late && <strong>Late</strong>}
                        {d.reason && <span className="muted">{d.reason}</span>}
                        {d.status === 'due' &&
                          order.status === 'active' &&
                          (Object.keys(OUTCOME_LABELS) as DoseOutcome[]).map((outcome) => (
                            <button
                              key={outcome}
                              type="button"
                              className={
                                outcome === 'given' ? 'button button-small button-primary' : 'button button-small'
                              }
                              onClick={() => setRecording({ dose: d, order, outcome })}
                              aria-label={`${OUTCOME_LABELS[outcome]}: ${order.medicine.label}, ${formatDateTime(d.due_at ?? '')}`}
                            >
                              {OUTCOME_LABELS[outcome]}
                            </button>
                          ))}
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
            </section>
          ))}
        </>
      )}
      {recording && <RecordDoseDialog recording={recording} onClose={() => setRecording(null)} onDone={done} />}
      {ordering && (
        <PrescribeDialog
          patient={ordering.patient}
          source={{ admissionId: ordering.admission_id }}
          onClose={() => setOrdering(null)}
          onDone={(order) => done(success(`Ordered: ${order.words}`))}
        />
      )}
    </>
  );
}

/** A scheduled dose recorded (given with its amount; held, refused or missed with a reason), or an as-needed dose given. */
function RecordDoseDialog({
  recording,
  onClose,
  onDone,
}: {
  recording: Recording;
  onClose: () => void;
  onDone: (message: AlertMessage) => void;
}) {
  const { order } = recording;
  const outcome = 'outcome' in recording ? recording.outcome : 'given';
  const [dose, setDose] = useState(String(order.dose));
  const [reason, setReason] = useState('');
  const title = `${outcome === 'given' ? 'Give' : OUTCOME_LABELS[outcome]}: ${order.medicine.label}`;
  return (
    <ActionDialog
      title={title}
      label="Dose"
      submitLabel={outcome === 'given' ? 'Record given' : `Record ${outcome}`}
      failureText="The dose could not be recorded. Please try again."
      onClose={onClose}
      onDone={onDone}
      send={async () => {
        if ('dose' in recording)
          await apiPost(endpoints.medicines.recordDose(recording.dose.id), {
            outcome,
            ...(outcome === 'given' ? { dose: Number(dose), dose_unit: order.dose_unit } : { reason }),
          });
        else
          await apiPost(endpoints.medicines.asNeededDose(order.id), {
            dose: Number(dose),
            dose_unit: order.dose_unit,
          });
        return `${order.medicine.label}: dose recorded ${outcome}`;
      }}
    >
      {(errors) =>
        outcome === 'given' ? (
          <Field label={`Dose (${order.dose_unit})`} errors={errors.dose}>
            {(control) => (
              <input
                {...control}
                type="number"
                min="0"
                step="any"
                required
                value={dose}
                onChange={(e) => setDose(e.target.value)}
              />
            )}
          </Field>
        ) : (
          <Field label="Reason" errors={errors.reason}>
            {(control) => (
              <textarea {...control} required rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
            )}
          </Field>
        )
      }
    </ActionDialog>
  );
}
