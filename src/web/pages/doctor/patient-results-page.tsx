/** A patient's lab results for a doctor of their care team: a trend per test, then each order, newest first. */
import { useState } from 'react';
import { Link, useParams } from 'wouter';
import type { ListJson } from '../../../http/answers.ts';
import { Alert } from '../../components/alert.tsx';
import { BreakGlassForm } from '../../components/break-glass-form.tsx';
import type { LabOrderJson } from '../../components/lab-labels.ts';
import { LabOrderCard } from '../../components/lab-order-card.tsx';
import { PanelBody } from '../../components/list-states.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { Trends, type TrendEntry } from '../../components/trend-chart.tsx';
import { ALL, useAlert } from '../../components/use-alert.ts';
import { useLoaded } from '../../components/use-fetched.ts';
import { endpoints, routes, withId } from '../../paths.ts';

/** Every test ordered as a point of its trend: its value, or a gap when it has none. */
const entriesOf = (orders: LabOrderJson[]): TrendEntry[] =>
  orders.flatMap((o) =>
    o.items
      .filter((i) => i.status !== 'cancelled')
      .map((i) => ({
        code: i.code,
        name: i.name,
        unit: i.result?.unit ?? null,
        reference: i.result?.range ?? null,
        point: {
          at: i.result?.effective_at ?? o.ordered_at,
          value: i.result?.value_type === 'quantity' ? i.result.value : null,
          flag: i.result?.interpretation ?? null,
        },
      })),
  );

export default function PatientResultsPage() {
  const { id = '' } = useParams<{ id: string }>();
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const { loaded, retry } = useLoaded<ListJson<'orders', LabOrderJson>>(
    endpoints.lab.patientResults(id),
    'Lab results',
    ALL,
    reloadKey,
  );
  const name = loaded.state === 'loaded' ? loaded.value.orders[0]?.patient.name : undefined;
  return (
    <>
      <PageHeader title={name ? `Lab results: ${name}` : 'Lab results'} stacked>
        <Link href={withId(routes.doctor.patient, id)} className="button button-small">
          Patient Overview
        </Link>
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      {loaded.state === 'failed' ? (
        <BreakGlassForm patientId={id} onOpened={retry} />
      ) : (
        <PanelBody loaded={loaded} retry={retry} what="Lab results" skeleton={<div className="card lab-order" />}>
          {({ orders }) =>
            orders.length === 0 ? (
              <p className="empty">No lab orders for this patient yet.</p>
            ) : (
              <>
                <Trends entries={entriesOf(orders)} />
                <section className="lab-orders" aria-label="Orders">
                  {orders.map((order) => (
                    <LabOrderCard
                      key={order.id}
                      order={order}
                      setAlert={setAlert}
                      onChanged={() => setReloadKey((key) => key + 1)}
                    />
                  ))}
                </section>
              </>
            )
          }
        </PanelBody>
      )}
    </>
  );
}
