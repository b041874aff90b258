/** A lab order's report to print: the clinic's letterhead, the patient (name, birth date, id), the results. */
import { Link, useParams } from 'wouter';
import type { PatientDetailJson } from '../../../domain/records/records-shapes.ts';
import type { LabOrderJson } from '../../components/lab-labels.ts';
import { REPORT_STATUS_LABELS } from '../../components/lab-labels.ts';
import { LabResultsTable } from '../../components/lab-results-table.tsx';
import { PanelBody } from '../../components/list-states.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useFetched, useLoaded } from '../../components/use-fetched.ts';
import { formatDateTime } from '../../format.ts';
import { endpoints, routes, withId } from '../../paths.ts';
import { PrintButton } from '../../components/print-button.tsx';
import { PrintHead, SignatureLine, type Contact, useWithLetterhead } from '../../components/printout.tsx';

export default function LabReportPage() {
  const { id = '' } = useParams<{ id: string }>();
  const fetched = useLoaded<LabOrderJson>(endpoints.lab.order(id), 'lab report');
  const { loaded, clinic } = useWithLetterhead(fetched.loaded);
  const order = loaded.state === 'loaded' ? loaded.value : null;
  return (
    <>
      <PageHeader title="Lab report">
        {order && (
          <Link href={withId(routes.doctor.patientResults, order.patient.id)} className="button button-small no-print">
            Lab results
          </Link>
        )}
        {order && <PrintButton />}
      </PageHeader>
      <PanelBody
        loaded={loaded}
        retry={fetched.retry}
        what="The lab report"
        skeleton={<article className="card lab-report" />}
      >
        {(o) => <LabReport order={o} clinic={clinic} />}
      </PanelBody>
    </>
  );
}

function LabReport({ order, clinic }: { order: LabOrderJson; clinic: Contact | null }) {
  const patient = useFetched<PatientDetailJson>(endpoints.doctor.patient(order.patient.id), 'patient');
  const signed = order.report.signed_off_at;
  return (
    <article className="card printout lab-report">
      <PrintHead
        title="Laboratory report"
        reference={order.order_number}
        clinic={clinic}
        patient={{ ...order.patient, birthDate: patient?.birthdate ?? null }}
        dated={{ label: 'Ordered', value: formatDateTime(order.ordered_at) }}
      />
      <dl className="details">
        <dt>Ordered by</dt>
        <dd>
          {order.doctor.name}, {formatDateTime(order.ordered_at)}
        </dd>
        <dt>Report</dt>
        <dd>
          {REPORT_STATUS_LABELS[order.report.status]}
          {signed ? `, signed off ${formatDateTime(signed)}` : ''}
        </dd>
      </dl>
      <LabResultsTable order={order} caption="Results" printed />
      <SignatureLine name={order.doctor.name} signsAs="Requesting doctor" />
    </article>
  );
}
