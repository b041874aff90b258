/** A stay's fluid balance and nursing notes under its flowsheet, each with the action that adds to it. */
import { useState } from 'react';
import { formatDateTime } from '../format.ts';
import { endpoints } from '../paths.ts';
import { Alert, type AlertMessage } from './alert.tsx';
import { FluidDialog } from './fluid-dialog.tsx';
import { NursingNoteDialog } from './nursing-note-dialog.tsx';
import { useAlert } from './use-alert.ts';
import { useLoaded } from './use-fetched.ts';
import type { FluidBalanceJson, NursingNoteJson } from '../../domain/vitals/vitals-shapes.ts';

type Opened = { dialog: 'fluid' } | { dialog: 'note'; corrects?: number };

export function StayNursingPanel({ admissionId }: { admissionId: number }) {
  const [version, setVersion] = useState(0);
  const fluids = useLoaded<FluidBalanceJson>(endpoints.vitals.fluidBalance(admissionId), 'fluid balance', {}, version);
  const written = useLoaded<{ notes: NursingNoteJson[] }>(
    endpoints.vitals.nursingNotes(admissionId),
    'nursing notes',
    {},
    version,
  );
  const balance = fluids.loaded.state === 'loaded' ? fluids.loaded.value : null;
  const notes = written.loaded.state === 'loaded' ? written.loaded.value : null;
  const { alert, setAlert, dismiss } = useAlert();
  const [opened, setOpened] = useState<Opened | null>(null);
  const done = (message: AlertMessage) => {
    setOpened(null);
    setAlert(message);
    setVersion((v) => v + 1);
  };
  const day = balance?.days.at(-1);
  return (
    <section className="no-print" aria-labelledby="stay-nursing">
      <h2 id="stay-nursing">Fluid balance and nursing notes</h2>
      <Alert message={alert} onDismiss={dismiss} />
      <div className="card">
        <h3>Fluid balance</h3>
        {day ? (
          <p>
            Last 24 h: in {day.intake_ml} mL, out {day.output_ml} mL, balance {day.balance_ml} mL (running{' '}
            {day.running_balance_ml} mL)
          </p>
        ) : (
          <p className="empty">No fluid charted on this stay yet.</p>
        )}
        {balance && balance.shifts.length > 0 && (
          <div className="table-scroll">
            <table className="table">
              <caption>Fluid balance per {balance.shift_hours}-hour shift</caption>
              <thead>
                <tr>
                  <th scope="col">Shift from</th>
                  <th scope="col">In (mL)</th>
                  <th scope="col">Out (mL)</th>
                  <th scope="col">Balance (mL)</th>
                  <th scope="col">Running (mL)</th>
                </tr>
              </thead>
              <tbody>
                {balance.shifts.map((s) => (
                  <tr key={s.start}>
                    <td>{formatDateTime(s.start)}</td>
                    <td>{s.intake_ml}</td>
                    <td>{s.output_ml}</td>
                    <td>{s.balance_ml}</td>
                    <td>{s.running_balance_ml}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <button type="button" className="button button-small" onClick={() => setOpened({ dialog: 'fluid' })}>
          Chart fluid
        </button>
      </div>
      <div className="card">
        <h3>Nursing notes</h3>
        {notes && notes.notes.length === 0 && <p className="empty">No nursing notes on this stay yet.</p>}
        <ul className="note-list">
          {notes?.notes.map((n) => (
            <li key={n.id}>
              <p>
                <strong>{formatDateTime(n.written_at)}</strong> · {n.written_by.name}
                {n.corrects !== null && ' · corrects an earlier note'}
                {n.corrected_by !== null && ' · corrected by a later note'}
              </p>
              <p>{n.body}</p>
              {n.corrected_by === null && (
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => setOpened({ dialog: 'note', corrects: n.id })}
                >
                  Correct<span className="visually-hidden"> the note of {formatDateTime(n.written_at)}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
        <button type="button" className="button button-small" onClick={() => setOpened({ dialog: 'note' })}>
          Write a note
        </button>
      </div>
      {opened?.dialog === 'fluid' && (
        <FluidDialog admissionId={admissionId} onClose={() => setOpened(null)} onDone={done} />
      )}
      {opened?.dialog === 'note' && (
        <NursingNoteDialog
          admissionId={admissionId}
          corrects={opened.corrects}
          onClose={() => setOpened(null)}
          onDone={done}
        />
      )}
    </section>
  );
}
