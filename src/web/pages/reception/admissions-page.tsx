/**
 * The desk's admissions (reception and admins): requests waiting for a bed to admit, reserve or cancel; stays in a
 * bed to transfer, undo or, once a doctor ordered it, discharge; past stays.
 */
import { useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { role } from '../../auth.ts';
import { AdmissionTable } from '../../components/admission-table.tsx';
import { Alert, type AlertMessage } from '../../components/alert.tsx';
import { BedChoiceDialog, type BedStep } from '../../components/bed-dialogs.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import type { RowAction } from '../../components/row-actions.tsx';
import { cancelStep, useAdmissionStep, type ConfirmedStep } from '../../components/use-admission-step.ts';
import { useAlert } from '../../components/use-alert.ts';
import { UNDO_WINDOW_MS, bedPlace, type AdmissionJson } from '../../components/ward.ts';
import { routes, withId } from '../../paths.ts';

type Choosing = { admission: AdmissionJson; step: BedStep };

const undoable = (a: AdmissionJson) =>
  a.status === 'reserved' ||
  (a.status === 'admitted' && a.admitted_at !== null && Date.now() - Date.parse(a.admitted_at) < UNDO_WINDOW_MS);

export default function DeskAdmissionsPage() {
  useSignals();
  const admin = role.value === 'admin';
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [choosing, setChoosing] = useState<Choosing | null>(null);

  const done = (message: AlertMessage) => {
    setChoosing(null);
    setAlert(message);
    setReloadKey((key) => key + 1);
  };

  const confirmed = useAdmissionStep({ setAlert, onDone: done });

  const actions = (a: AdmissionJson): RowAction[] => {
    const name = a.patient.name;
    const place = a.bed ? bedPlace(a.bed) : 'the bed';
    const action = (label: string, onSelect: () => void, tone?: RowAction['tone']): RowAction => ({
      label,
      name: `${label}: ${name}`,
      onSelect,
      tone,
    });
    const choose = (step: BedStep) => () => setChoosing({ admission: a, step });
    const ask = (step: ConfirmedStep) => () => void confirmed(a, step);
    const cancel = ask(cancelStep(name));
    const undo = ask({
      step: 'undo',
      question:
        a.status === 'reserved'
          ? `Release ${place} held for ${name}? The request waits for a bed again.`
          : `Undo the admission of ${name}? The request waits for a bed again and ${place} is free.`,
      confirmLabel: 'Undo',
      doneText: `${name} is waiting for a bed again`,
    });
    const discharge = ask({
      step: 'discharge',
      question: `Confirm that ${name} has left ${place}? The stay ends, the bed is to be cleaned and the nights not yet billed are billed.`,
      confirmLabel: 'Confirm discharge',
      doneText: `${name} is discharged; the stay is billed`,
    });
    const offered: [boolean, RowAction][] = [
      [a.status === 'requested' || a.status === 'reserved', action('Admit', choose('admit'), 'primary')],
      [a.status === 'requested', action('Reserve', choose('reserve'))],
      [a.status === 'discharge_ordered', action('Confirm discharge', discharge, 'primary')],
      [a.status === 'admitted' || a.status === 'discharge_ordered', action('Transfer', choose('transfer'))],
      [undoable(a), action(a.status === 'reserved' ? 'Undo reservation' : 'Undo admission', undo)],
      [a.status === 'requested' || a.status === 'reserved', action('Cancel', cancel, 'danger')],
      [
        admin && a.discharge_ordered_at !== null && a.status !== 'cancelled',
        { label: 'Summary', name: `Discharge summary: ${name}`, href: withId(routes.admin.dischargeSummary, a.id) },
      ],
    ];
    return offered.filter(([shown]) => shown).map(([, offer]) => offer);
  };

  return (
    <>
      <PageHeader title="Admissions" />
      <Alert message={alert} onDismiss={dismiss} />
      <AdmissionTable reloadKey={reloadKey} showReason={admin} actions={actions} />
      {choosing && (
        <BedChoiceDialog
          admission={choosing.admission}
          step={choosing.step}
          onClose={() => setChoosing(null)}
          onDone={done}
        />
      )}
    </>
  );
}
