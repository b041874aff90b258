/** A lab order's report to print: the clinic's letterhead, the patient (name, birth date, id), the results. */
import { Link, useParams } from 'wouter';
import type { PatientDetailJson } from '../../../domain/records/records-shapes.ts';
import type { ClinicJson } from '../../../domain/shared/shared-shapes.ts';
import type { LabOrderJson } from '../../components/lab-labels.ts';
import { REPORT_STATUS_LABELS } from '../../components/lab-labels.ts';
import { LabResultsTable } from '../../components/lab-results-table.tsx';
import { Letterhead } from '../../components/letterhead.tsx';
import { PanelBody } from '../../components/list-states.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useFetched, useLoaded, type Loaded } from '../../components/use-fetched.ts';
import { formatDate, formatDateTime } from '../../format.ts';
import { endpoints, routes, withId } from '../../paths.ts';
import { PrintButton } from '../../components/print-button.tsx';

export default function LabReportPage() {
  const { id = '' } = useParams<{ id: string }>();
  const { loaded, retry } = useLoaded<LabOrderJson>(endpoints.lab.order(id), 'lab report');
  const order = loaded.state === 'loaded' ? loaded.value : null;
  const { loaded: clinic } = useLoaded<ClinicJson>(endpoints.clinic, 'clinic');
  // The report waits for its letterhead too: drawn before it, the clinic's lines would push the report down.
  const report: Loaded<LabOrderJson> = clinic.state === 'loading' ? clinic : loaded;
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
      <PanelBody loaded={report} retry={retry} what="The lab report" skeleton={<article className="card lab-report" />}>
        {(o) => <LabReport order={o} clinic={clinic.state === 'loaded' ? clinic.value : null} />}
      </PanelBody>
    </>
  );
}

function LabReport({ order, clinic }: { order: LabOrderJson; clinic: ClinicJson | null }) {
  const patient = useFetched<PatientDetailJson>(endpoints.doctor.patient(order.patient.id), 'patient');
  const signed = order.report.signed_off_at;
  return (
    <article className="card lab-report receipt">
      <Letterhead title="Laboratory report" reference={order.order_number} clinic={clinic} />
      <dl className="details">
        <dt>Patient</dt>
        <dd>{order.patient.name}</dd>
        <dt>Birth date</dt>
        <dd>{patient?.birthdate ? formatDate(patient.birthdate) : '—'}</dd>
        <dt>Patient ID</dt>
        <dd>{order.patient.id}</dd>
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
    </article>
  );
}
