/** The patient's prescriptions and medicines, newest first, each with its printable prescription. */
import { Link } from 'wouter';
import type { MedicationOrderJson } from '../../../domain/medicines/medicines-shapes.ts';
import { PanelBody } from '../../components/list-states.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { ALL } from '../../components/use-alert.ts';
import { useLoaded } from '../../components/use-fetched.ts';
import { formatDate } from '../../format.ts';
import { endpoints, routes, withId } from '../../paths.ts';

export default function PatientMedicinesPage() {
  const { loaded, retry } = useLoaded<{ orders: MedicationOrderJson[] }>(endpoints.medicines.mine, 'prescriptions', {
    per_page: ALL.per_page,
  });
  return (
    <>
      <PageHeader title="My medicines" />
      <section className="card">
        <PanelBody loaded={loaded} retry={retry} what="Your prescriptions" skeleton={<span className="skeleton" />}>
          {({ orders }) =>
            orders.length === 0 ? (
              <p className="empty">No prescriptions yet.</p>
            ) : (
              <ul className="visit-records">
                {orders.map((o) => (
                  <li key={o.id} className="visit-record">
                    <h2>{o.medicine.label}</h2>
                    <p>{o.words}</p>
                    <p className="muted">
                      {o.doctor.name} · {formatDate(o.start_date)} ·{' '}
                      {o.setting === 'inpatient' ? 'On the ward' : 'Prescription'}
                    </p>
                    <StatusBadge status={o.status} />
                    {o.setting === 'outpatient' && (
                      <Link
                        href={withId(routes.patient.prescription, o.id)}
                        className="button button-small"
                        aria-label={`Print prescription of ${o.medicine.label}`}
                      >
                        Print
                      </Link>
                    )}
                  </li>
                ))}
              </ul>
            )
          }
        </PanelBody>
      </section>
    </>
  );
}
