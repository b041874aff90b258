/** The patient's own visits, newest first: what each doctor found and prescribed, and what it cost. Printable. */
import type { PatientVisitJson } from '../../../domain/patients/visits.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { PanelBody } from '../../components/list-states.tsx';
import { useLoaded } from '../../components/use-fetched.ts';
import { clockTime, usd } from '../../format.ts';
import { endpoints } from '../../paths.ts';

/** Enough placeholder visits to fill a screen while the records are on their way. */
const PLACEHOLDER_VISITS = 2;

export default function MyRecordsPage() {
  const { loaded, retry } = useLoaded<{ records: PatientVisitJson[] }>(endpoints.patient.records, 'records');
  const printable = loaded.state === 'loaded' && loaded.value.records.length > 0;

  return (
    <>
      <PageHeader title="My Records">
        {printable && (
          <button type="button" className="button button-small no-print" onClick={() => window.print()}>
            Print
          </button>
        )}
      </PageHeader>
      <PanelBody
        loaded={loaded}
        retry={retry}
        what="Your records"
        skeleton={
          <ol className="visit-list">
            {Array.from({ length: PLACEHOLDER_VISITS }, (_, index) => (
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
    </>
  );
}

function VisitRecord({ visit }: { visit: PatientVisitJson }) {
  return (
    <li className="card visit-record">
      <h2>
        {visit.date}, {clockTime(visit.start_time)} · {visit.doctor.name}
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
    </li>
  );
}
