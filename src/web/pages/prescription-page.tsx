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
import { PrintHead, SignatureLine } from '../components/printout.tsx';

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
          <article className="card printout prescription">
            <PrintHead
              title="Prescription"
              reference={`No. ${p.order.id}`}
              clinic={p.clinic}
              patient={{ ...p.order.patient, birthDate: p.patient_birth_date }}
              dated={{ label: 'Date', value: formatDate(p.date) }}
            />
            <h2>℞</h2>
            <p className="prescription-words">{p.order.words}</p>
            <SignatureLine name={p.order.doctor.name} signsAs="Prescribing doctor" />
          </article>
        )}
      </PanelBody>
    </>
  );
}
