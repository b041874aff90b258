/** The patient's own visits, newest first: what each doctor found and prescribed, and what it cost. Printable. */
import { useEffect, useState } from 'react';
import type { PatientVisitJson } from '../../../domain/patients/visits.ts';
import { apiGet } from '../../api.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { useLatestRequest } from '../../components/use-latest-request.ts';
import { clockTime, usd } from '../../format.ts';
import { endpoints } from '../../paths.ts';

type Loaded = { state: 'loading' } | { state: 'failed' } | { state: 'loaded'; records: PatientVisitJson[] };

export default function MyRecordsPage() {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const latest = useLatestRequest();
  useEffect(() => {
    latest.start(
      (signal) => apiGet<{ records: PatientVisitJson[] }>(endpoints.patient.records, undefined, signal),
      ({ records }) => setLoaded({ state: 'loaded', records }),
      (error) => {
        console.error('records fetch failed', error);
        setLoaded({ state: 'failed' });
      },
    );
  }, [latest]);

  return (
    <>
      <PageHeader title="My Records">
        {loaded.state === 'loaded' && loaded.records.length > 0 && (
          <button type="button" className="button button-small no-print" onClick={() => window.print()}>
            Print
          </button>
        )}
      </PageHeader>
      {loaded.state === 'loading' && <p className="muted" role="status">Loading your records…</p>}
      {loaded.state === 'failed' && <p role="alert">Your records could not be loaded. Please try again.</p>}
      {loaded.state === 'loaded' &&
        (loaded.records.length === 0 ? (
          <p>No medical records found.</p>
        ) : (
          <ol className="visit-list">
            {loaded.records.map((visit) => (
              <VisitRecord key={visit.id} visit={visit} />
            ))}
          </ol>
        ))}
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
