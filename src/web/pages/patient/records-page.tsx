/** The patient's own visits, newest first: what each doctor found and prescribed, and what it cost. Printable. */
import type { MyProfileJson, PatientVisitJson } from '../../../domain/patients/patients-shapes.ts';
import { apiGet } from '../../api.ts';
import { Alert } from '../../components/alert.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { DownloadDataButton } from '../../components/download-data-button.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { RecordHistory } from '../../components/record-history.tsx';
import { PanelBody } from '../../components/list-states.tsx';
import { HospitalStays } from './hospital-stays.tsx';
import { useLoaded } from '../../components/use-fetched.ts';
import { PrintButton } from '../../components/print-button.tsx';
import { MyPrintHead } from './my-print-head.tsx';
import { formatDate, formatTime, usd } from '../../format.ts';
import { endpoints } from '../../paths.ts';

/** Enough placeholder visits to fill a screen while the records are on their way. */
const PLACEHOLDER_VISITS = 2;

export default function MyRecordsPage() {
  const { loaded, retry } = useLoaded<{ records: PatientVisitJson[] }>(endpoints.patient.records, 'records');
  const printable = loaded.state === 'loaded' && loaded.value.records.length > 0;
  const { alert, setAlert, dismiss } = useAlert();
  const ownId = () => apiGet<MyProfileJson>(endpoints.patient.profile).then(({ patient }) => patient.id);

  return (
    <>
      <PageHeader title="My Records">
        {printable && <PrintButton />}
        <DownloadDataButton label="Download my data" patientId={ownId} onFailure={setAlert} />
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      <MyPrintHead title="Medical records" />
      <PanelBody
        loaded={loaded}
        retry={retry}
        what="Your records"
        skeleton={
          <ol className="visit-list">
            {Array.from({ length: PLACEHOLDER_VISITS }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity and never reorder
              <li key={index} className="card visit-record skeleton-visit" />
            ))}
          </ol>
        }
      >
        {({ records }) =>
          records.length === 0 ? (
            <p className="empty">No medical records found.</p>
          ) : (
            <ol className="visit-list">
              {records.map((visit) => (
                <VisitRecord key={visit.id} visit={visit} />
              ))}
            </ol>
          )
        }
      </PanelBody>
      <HospitalStays visitsShown={loaded.state !== 'loading'} />
    </>
  );
}

function VisitRecord({ visit }: { visit: PatientVisitJson }) {
  return (
    <li className="card visit-record">
      <h2>
        {formatDate(visit.date)}, {formatTime(visit.start_time)} · {visit.doctor.name}
      </h2>
      <dl className="details">
        <dt>Disease</dt>
        <dd>{visit.disease?.name || 'N/A'}</dd>
        <dt>Diagnosis</dt>
        <dd>{visit.diagnosis || 'No diagnosis provided'}</dd>
        <dt>Prescriptions</dt>
        <dd>{visit.prescriptions || 'None'}</dd>
        <dt>Lab tests</dt>
        <dd>{visit.lab_tests || 'None'}</dd>
        <dt>Service</dt>
        <dd>{visit.service_type}</dd>
        <dt>Bill</dt>
        <dd>
          {visit.bill ? (
            <>
              {usd(visit.bill.amount_cents)} <StatusBadge status={visit.bill.payment_status} />
            </>
          ) : (
            'No charge'
          )}
        </dd>
      </dl>
      <RecordHistory record={visit} />
    </li>
  );
}
