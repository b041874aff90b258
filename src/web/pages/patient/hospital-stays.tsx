/** The patient's hospital stays on their records: where they lay, the discharge summary, and what the stay cost. */
import { Link } from 'wouter';
import { DischargeSummaryView } from '../../components/discharge-summary-view.tsx';
import { LoadFailure } from '../../components/list-states.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { useLoaded } from '../../components/use-fetched.ts';
import { ADMISSION_STATUS_LABELS, bedPlace, type AdmissionDetailJson } from '../../components/ward.ts';
import { formatDateTime, usd } from '../../format.ts';
import { endpoints, routes, withId } from '../../paths.ts';

/**
 * Below the visits, and only once there is a stay to show and the visits above are shown: asked for at once, but
 * drawn only then, so nothing on the page moves whichever answer comes first.
 */
export function HospitalStays({ visitsShown }: { visitsShown: boolean }) {
  const { loaded, retry } = useLoaded<{ admissions: AdmissionDetailJson[] }>(
    endpoints.patient.admissions,
    'hospital stays',
  );
  if (!visitsShown) return null;
  if (loaded.state === 'failed') return <LoadFailure what="Your hospital stays" onRetry={retry} />;
  if (loaded.state === 'loading' || loaded.value.admissions.length === 0) return null;
  return (
    <section className="hospital-stays" aria-labelledby="stays-heading">
      <h2 id="stays-heading">Hospital stays</h2>
      <ol className="visit-list">
        {loaded.value.admissions.map((stay) => (
          <Stay key={stay.id} stay={stay} />
        ))}
      </ol>
    </section>
  );
}

function Stay({ stay }: { stay: AdmissionDetailJson }) {
  const billed = stay.charges.reduce((cents, charge) => cents + charge.amount_cents, 0);
  return (
    <li className="card visit-record">
      <h3>
        {stay.ward.name}{' '}
        <StatusBadge status={`admission-${stay.status}`} label={ADMISSION_STATUS_LABELS[stay.status]} />
      </h3>
      <dl className="details">
        <dt>Admitted</dt>
        <dd>{stay.admitted_at ? formatDateTime(stay.admitted_at) : 'Not yet: waiting for a bed'}</dd>
        <dt>Discharged</dt>
        <dd>{stay.discharged_at ? formatDateTime(stay.discharged_at) : '—'}</dd>
        <dt>Where</dt>
        <dd>
          {stay.locations.length === 0 ? (
            '—'
          ) : (
            <ul className="stay-locations">
              {stay.locations.map((l) => (
                <li key={l.from}>
                  {bedPlace({ label: l.bed, room: l.room })}: {formatDateTime(l.from)} to{' '}
                  {l.to ? formatDateTime(l.to) : 'now'}
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt>Billed</dt>
        <dd>
          {stay.charges.length === 0 ? 'Nothing yet' : usd(billed)} · <Link href={routes.patient.bills}>Bills</Link>
        </dd>
      </dl>
      {stay.discharge_summary && (
        <>
          <h4>Discharge summary</h4>
          <DischargeSummaryView summary={stay.discharge_summary} />
          <Link href={withId(routes.patient.dischargeSummary, stay.id)} className="button button-small no-print">
            Print discharge summary
          </Link>
        </>
      )}
    </li>
  );
}
