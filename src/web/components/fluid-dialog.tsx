/** A nurse or doctor charts a fluid intake or output of a stay, from its flowsheet. */
import { useState } from 'react';
import { apiPost } from '../api.ts';
import { endpoints } from '../paths.ts';
import { ActionDialog } from './action-dialog.tsx';
import type { AlertMessage } from './alert.tsx';
import { Field } from './field.tsx';
import type { FluidBalanceJson } from '../../domain/vitals/vitals-shapes.ts';

type Kind = FluidBalanceJson['events'][number]['kind'];
const ROUTES: Record<Kind, readonly string[]> = {
  intake: ['oral', 'intravenous', 'enteral-tube', 'other'],
  output: ['urine', 'vomit', 'drain', 'stool', 'nasogastric', 'other'],
};

export function FluidDialog({
  admissionId,
  onClose,
  onDone,
}: {
  admissionId: number;
  onClose: () => void;
  onDone: (message: AlertMessage) => void;
}) {
  const [kind, setKind] = useState<Kind>('intake');
  const [route, setRoute] = useState('oral');
  const [volume, setVolume] = useState('');
  // One key per opened dialog: a double submit stores the entry once.
  const [key] = useState(() => crypto.randomUUID());
  return (
    <ActionDialog
      onClose={onClose}
      onDone={onDone}
      title="Fluid intake or output"
      label="Chart fluid"
      submitLabel="Chart"
      failureText="The fluid could not be charted. Please try again."
      send={async () => {
        await apiPost(
          endpoints.vitals.fluids(admissionId),
          { kind, route, volume_ml: Number(volume) },
          { 'Idempotency-Key': key },
        );
        return `${kind === 'intake' ? 'Intake' : 'Output'} of ${volume} mL charted`;
      }}
    >
      {(errors) => (
        <>
          <Field label="In or out" errors={errors.kind}>
            {(control) => (
              <select
                {...control}
                value={kind}
                onChange={(e) => {
                  const next = e.target.value === 'output' ? 'output' : 'intake';
                  setKind(next);
                  setRoute(ROUTES[next][0] ?? 'other');
                }}
              >
                <option value="intake">Intake</option>
                <option value="output">Output</option>
              </select>
            )}
          </Field>
          <Field label="Route" errors={errors.route}>
            {(control) => (
              <select {...control} value={route} onChange={(e) => setRoute(e.target.value)}>
                {ROUTES[kind].map((r) => (
                  <option key={r} value={r}>
                    {r.replace('-', ' ')}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Volume (mL)" errors={errors.volume_ml}>
            {(control) => (
              <input {...control} inputMode="numeric" value={volume} onChange={(e) => setVolume(e.target.value)} />
            )}
          </Field>
        </>
      )}
    </ActionDialog>
  );
}
