/** A printable prescription: the clinic's letterhead, the patient, the medicine as prescribed, the doctor and a signature line. */
import { Link, useParams } from 'wouter';
import { useSignals } from '@preact/signals-react/runtime';
import type { PrintoutJson } from '../../domain/medicines/medicines-shapes.ts';
import { role } from '../auth.ts';
import { PanelBody } from '../components/list-states.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useLoaded } from '../components/use-fetched.ts';
import { formatDate } from '../format.ts';
import { endpoints, routes } from '../paths.ts';
import { PrintButton } from '../components/print-button.tsx';

export default function PrescriptionPage() {
  useSignals();
  const { id = '' } = useParams<{ id: string }>();
  const { loaded, retry } = useLoaded<PrintoutJson>(endpoints.medicines.printout(id), 'prescription');
  const back = role.value === 'patient' ? routes.patient.medicines : routes.doctor.agenda;
  return (
    <>
      <PageHeader title="Prescription">
        <Link href={back} className="button button-small no-print">
          {role.value === 'patient' ? 'My medicines' : 'My Day'}
        </Link>
        {loaded.state === 'loaded' && <PrintButton />}
      </PageHeader>
      <PanelBody
        loaded={loaded}
        retry={retry}
        what="The prescription"
        skeleton={<article className="card prescription skeleton-visit" />}
      >
        {(p) => (
          <article className="card prescription receipt">
            <header className="receipt-header">
              <address className="receipt-from">
                <span className="receipt-clinic">{p.clinic.name}</span>
                {p.clinic.address && <span>{p.clinic.address}</span>}
                {p.clinic.phone && <span>Phone: {p.clinic.phone}</span>}
              </address>
              <p className="receipt-kind">
                Prescription<span>No. {p.order.id}</span>
              </p>
            </header>
            <dl className="details">
              <dt>Patient</dt>
              <dd>{p.order.patient.name}</dd>
              <dt>Date of birth</dt>
              <dd>{p.patient_birth_date ? formatDate(p.patient_birth_date) : 'N/A'}</dd>
              <dt>Date</dt>
              <dd>{formatDate(p.date)}</dd>
            </dl>
            <h2>℞</h2>
            <p className="prescription-words">{p.order.words}</p>
            <dl className="details">
              <dt>Prescriber</dt>
              <dd>{p.order.doctor.name}</dd>
            </dl>
            <p className="signature-line">Signature of {p.order.doctor.name}</p>
          </article>
        )}
      </PanelBody>
    </>
  );
}
