/** A stay's discharge summary to print (doctors, admins, and the patient it belongs to). */
import { Link, useParams } from 'wouter';
import { useSignals } from '@preact/signals-react/runtime';
import type { Role } from '../../domain/shared/actor.ts';
import { role } from '../auth.ts';
import { DischargeSummaryView } from '../components/discharge-summary-view.tsx';
import { PanelBody } from '../components/list-states.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useLoaded } from '../components/use-fetched.ts';
import type { PrintedSummaryJson } from '../components/ward.ts';
import { formatDateTime } from '../format.ts';
import { endpoints, routes } from '../paths.ts';
import { PrintButton } from '../components/print-button.tsx';
import { PrintHead, SignatureLine, useWithLetterhead } from '../components/printout.tsx';

/** Where each reader found the summary, to go back to. */
const BACK: Partial<Record<Role, { to: string; label: string }>> = {
  doctor: { to: routes.doctor.admissions, label: 'Ward patients' },
  admin: { to: routes.admin.admissions, label: 'Admissions' },
  patient: { to: routes.patient.records, label: 'My Records' },
};

export default function DischargeSummaryPage() {
  useSignals();
  const { id = '' } = useParams<{ id: string }>();
  const fetched = useLoaded<PrintedSummaryJson>(endpoints.ward.dischargeSummary(id), 'discharge summary');
  const { loaded, clinic } = useWithLetterhead(fetched.loaded);
  const back = role.value ? BACK[role.value] : undefined;
  return (
    <>
      <PageHeader title="Discharge summary">
        {back && (
          <Link href={back.to} className="button button-small no-print">
            {back.label}
          </Link>
        )}
        {loaded.state === 'loaded' && <PrintButton />}
      </PageHeader>
      <PanelBody
        loaded={loaded}
        retry={fetched.retry}
        what="The discharge summary"
        skeleton={<article className="card discharge-summary skeleton-visit" />}
      >
        {(summary) => (
          <article className="card printout discharge-summary">
            <PrintHead
              title="Discharge summary"
              reference={`Stay ${summary.admission_id}`}
              clinic={clinic}
              patient={{ ...summary.patient, birthDate: summary.patient_birth_date }}
              dated={{ label: 'Written', value: formatDateTime(summary.written_at) }}
            />
            <dl className="details">
              <dt>Ward</dt>
              <dd>{summary.ward.name}</dd>
              <dt>Admitted</dt>
              <dd>{summary.admitted_at ? formatDateTime(summary.admitted_at) : '—'}</dd>
              <dt>Discharged</dt>
              <dd>
                {summary.discharged_at ? formatDateTime(summary.discharged_at) : 'Not yet: the discharge is ordered'}
              </dd>
            </dl>
            <DischargeSummaryView summary={summary} />
            <section className="summary-section" aria-labelledby="continue-medicines">
              <h2 id="continue-medicines">Medicines to continue</h2>
              {summary.medicines_to_continue.length === 0 ? (
                <p>None ordered to continue.</p>
              ) : (
                <ul>
                  {summary.medicines_to_continue.map((m) => (
                    <li key={m.order_id}>{m.words}</li>
                  ))}
                </ul>
              )}
            </section>
            <SignatureLine name={summary.doctor.name} signsAs="Discharging doctor" />
          </article>
        )}
      </PanelBody>
    </>
  );
}
