/** The doctor's ward patients: stays in a bed to order a discharge for, requests to cancel, summaries to print. */
import { useState } from 'react';
import { OrderDischargeDialog } from '../../components/admission-dialogs.tsx';
import { OrderTestsDialog } from '../../components/order-tests-dialog.tsx';
import { AdmissionTable } from '../../components/admission-table.tsx';
import { Alert, type AlertMessage } from '../../components/alert.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import type { RowAction } from '../../components/row-actions.tsx';
import { cancelStep, useAdmissionStep } from '../../components/use-admission-step.ts';
import { useAlert } from '../../components/use-alert.ts';
import type { AdmissionJson } from '../../components/ward.ts';
import { routes, withId } from '../../paths.ts';

export default function DoctorAdmissionsPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [discharging, setDischarging] = useState<AdmissionJson | null>(null);
  const [ordering, setOrdering] = useState<AdmissionJson | null>(null);
  const done = (message: AlertMessage) => {
    setDischarging(null);
    setOrdering(null);
    setAlert(message);
    setReloadKey((key) => key + 1);
  };
  const confirmed = useAdmissionStep({ setAlert, onDone: done });

  const actions = (a: AdmissionJson): RowAction[] => {
    const name = a.patient.name;
    return [
      ...(a.status === 'admitted'
        ? [
            {
              label: 'Order discharge',
              name: `Order discharge: ${name}`,
              onSelect: () => setDischarging(a),
              tone: 'primary' as const,
            },
            { label: 'Order tests', name: `Order tests: ${name}`, onSelect: () => setOrdering(a) },
          ]
        : []),
      ...(a.status === 'discharge_ordered' || a.status === 'discharged'
        ? [{ label: 'Summary', name: `Discharge summary: ${name}`, href: withId(routes.doctor.dischargeSummary, a.id) }]
        : []),
      ...(a.status === 'requested' || a.status === 'reserved'
        ? [
            {
              label: 'Cancel',
              name: `Cancel: ${name}`,
              onSelect: () => void confirmed(a, cancelStep(name)),
              tone: 'danger' as const,
            },
          ]
        : []),
    ];
  };

  return (
    <>
      <PageHeader title="Ward patients" />
      <Alert message={alert} onDismiss={dismiss} />
      <AdmissionTable initialGroup="current" reloadKey={reloadKey} showReason actions={actions} />
      {ordering && (
        <OrderTestsDialog
          source={{ admission_id: ordering.id }}
          patientName={ordering.patient.name}
          onClose={() => setOrdering(null)}
          onDone={done}
        />
      )}
      {discharging && (
        <OrderDischargeDialog admission={discharging} onClose={() => setDischarging(null)} onDone={done} />
      )}
    </>
  );
}
