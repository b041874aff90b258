/** The desk's dialogs on the ward: a bed blocked, a waiting patient given a bed, a patient moved to another bed. */
import { useState } from 'react';
import { apiPost } from '../api.ts';
import { endpoints } from '../paths.ts';
import { ActionDialog } from './action-dialog.tsx';
import type { AlertMessage } from './alert.tsx';
import { Field } from './field.tsx';
import { useFetched } from './use-fetched.ts';
import {
  BLOCK_KIND_LABELS,
  bedPlace,
  isVacant,
  type AdmissionDetailJson,
  type AdmissionJson,
  type BedBoardJson,
  type BedJson,
} from './ward.ts';

interface DoneProps {
  onClose: () => void;
  onDone: (message: AlertMessage) => void;
}

/** Blocks a free bed for maintenance or isolation, with the reason the clinical staff read. */
export function BlockBedDialog({ bed, ...done }: DoneProps & { bed: BedJson }) {
  const [kind, setKind] = useState('maintenance');
  const [reason, setReason] = useState('');
  return (
    <ActionDialog
      {...done}
      title={`Block ${bedPlace(bed)}`}
      label="Block bed"
      submitLabel="Block bed"
      failureText="The bed could not be blocked. Please try again."
      send={async () => {
        await apiPost(endpoints.ward.blockBed(bed.id), { kind, reason });
        return `${bedPlace(bed)} is blocked`;
      }}
    >
      {(errors) => (
        <>
          <Field label="Blocked for" errors={errors.kind}>
            {(control) => (
              <select {...control} value={kind} onChange={(e) => setKind(e.target.value)}>
                {Object.entries(BLOCK_KIND_LABELS).map(([each, text]) => (
                  <option key={each} value={each}>
                    {text}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Reason" errors={errors.reason}>
            {(control) => (
              <textarea
                {...control}
                required
                rows={3}
                maxLength={500}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
              />
            )}
          </Field>
        </>
      )}
    </ActionDialog>
  );
}

const WAITING = { q: '', page: 1, per_page: 200, status: 'waiting' };

/** Gives a vacant bed to a waiting patient: admitted now, or the bed held for them until they arrive. */
export function AssignBedDialog({ bed, ...done }: DoneProps & { bed: BedJson }) {
  const waiting =
    useFetched<{ admissions: AdmissionJson[] }>(endpoints.ward.admissions, 'waiting admissions', WAITING)?.admissions ??
    null;
  const [chosen, setChosen] = useState('');
  const [step, setStep] = useState<'admit' | 'reserve'>('admit');
  const admission = waiting?.find((a) => String(a.id) === chosen);
  return (
    <ActionDialog
      {...done}
      title={`Assign ${bedPlace(bed)}`}
      label="Assign bed"
      submitLabel={step === 'admit' ? 'Admit to this bed' : 'Reserve this bed'}
      failureText="The bed could not be assigned. Please try again."
      send={async () => {
        await apiPost(endpoints.ward.admissionStep(chosen, step), { bed_id: bed.id });
        const name = admission?.patient.name ?? 'The patient';
        return step === 'admit'
          ? `${name} is admitted to ${bedPlace(bed)}`
          : `${bedPlace(bed)} is reserved for ${name}`;
      }}
    >
      {(errors) => (
        <>
          <Field
            label="Waiting patient"
            errors={errors.bed_id}
            hint={waiting?.length === 0 ? 'Nobody is waiting for a bed.' : undefined}
          >
            {(control) => (
              <select {...control} required value={chosen} onChange={(e) => setChosen(e.target.value)}>
                <option value="">{waiting === null ? 'Loading…' : 'Select patient'}</option>
                {waiting?.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.patient.name} · {a.ward.name}
                    {a.bed ? ` · holds ${bedPlace(a.bed)}` : ''}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <fieldset className="choice-group">
            <legend>When</legend>
            <label>
              <input type="radio" name="assign-step" checked={step === 'admit'} onChange={() => setStep('admit')} /> The
              patient is here: admit now
            </label>
            <label>
              <input
                type="radio"
                name="assign-step"
                checked={step === 'reserve'}
                disabled={admission?.status === 'reserved'}
                onChange={() => setStep('reserve')}
              />{' '}
              Hold the bed until they arrive
            </label>
          </fieldset>
        </>
      )}
    </ActionDialog>
  );
}

export type BedStep = 'admit' | 'reserve' | 'transfer';

const STEP_WORDS: Record<BedStep, { title: string; submit: string; done: (name: string, place: string) => string }> = {
  admit: { title: 'Admit', submit: 'Admit', done: (name, place) => `${name} is admitted to ${place}` },
  reserve: {
    title: 'Reserve a bed for',
    submit: 'Reserve bed',
    done: (name, place) => `${place} is reserved for ${name}`,
  },
  transfer: { title: 'Transfer', submit: 'Transfer', done: (name, place) => `${name} moved to ${place}` },
};

/** Chooses the bed an admission moves into: a vacant one, or for an admission the bed reserved for it. */
export function BedChoiceDialog({ admission, step, ...done }: DoneProps & { admission: AdmissionJson; step: BedStep }) {
  const board = useFetched<BedBoardJson>(endpoints.ward.bedBoard, 'bed board');
  const reserved = step === 'admit' && admission.bed ? admission.bed : null;
  const [chosen, setChosen] = useState('');
  const words = STEP_WORDS[step];
  return (
    <ActionDialog
      {...done}
      title={`${words.title} ${admission.patient.name}`}
      label={`${words.title} ${admission.patient.name}`}
      submitLabel={words.submit}
      failureText="That did not work. Please try again."
      send={async () => {
        const answer = await apiPost<AdmissionDetailJson>(
          endpoints.ward.admissionStep(admission.id, step),
          chosen ? { bed_id: Number(chosen) } : {},
        );
        return words.done(admission.patient.name, answer.bed ? bedPlace(answer.bed) : 'the bed');
      }}
    >
      {(errors) => (
        <Field label="Bed" errors={errors.bed_id}>
          {(control) => (
            <select {...control} required={!reserved} value={chosen} onChange={(e) => setChosen(e.target.value)}>
              <option value="">
                {reserved ? `The reserved bed: ${bedPlace(reserved)}` : board ? 'Select a vacant bed' : 'Loading…'}
              </option>
              {board?.wards.map((ward) => (
                <optgroup key={ward.id} label={ward.name}>
                  {ward.rooms.flatMap((room) =>
                    room.beds.filter(isVacant).map((bed) => (
                      <option key={bed.id} value={bed.id}>
                        {bedPlace(bed)}
                      </option>
                    )),
                  )}
                </optgroup>
              ))}
            </select>
          )}
        </Field>
      )}
    </ActionDialog>
  );
}
