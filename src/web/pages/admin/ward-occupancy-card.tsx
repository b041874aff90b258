/** The dashboard's census card: tonight's census so far, each ward's patients in a bed out of its beds. */
import { Link } from 'wouter';
import type { Census, CensusDay } from '../../../domain/inpatient/inpatient-shapes.ts';
import { PanelBody } from '../../components/list-states.tsx';
import { useLoaded } from '../../components/use-fetched.ts';
import { endpoints, routes } from '../../paths.ts';

/** Wards the skeleton holds a line for. */
const PLACEHOLDER_WARDS = 2;

export function WardOccupancyCard() {
  // The default period ends today in the clinic's zone, so its last day is today's census.
  const { loaded, retry } = useLoaded<Census>(endpoints.admin.census, 'census');
  return (
    <section className="card ward-occupancy" aria-labelledby="occupancy-heading">
      <h2 id="occupancy-heading">Ward occupancy today</h2>
      <PanelBody loaded={loaded} retry={retry} what="Ward occupancy" skeleton={<Occupancy days={null} />}>
        {(census) => <Occupancy days={census.days.filter((day) => day.date === census.to)} />}
      </PanelBody>
      <Link href={routes.admin.census}>Census</Link>
    </section>
  );
}

function Occupancy({ days }: { days: CensusDay[] | null }) {
  if (days?.length === 0) return <p className="empty">No ward has beds yet.</p>;
  const inBed = days?.reduce((n, day) => n + day.in_bed_at_midnight, 0) ?? 0;
  const beds = days?.reduce((n, day) => n + day.beds, 0) ?? 0;
  const rows = days ?? Array.from({ length: PLACEHOLDER_WARDS }, () => null);
  return (
    <dl className="stat-grid">
      <div className="stat">
        <dt>All wards</dt>
        <dd>{days ? `${inBed} of ${beds}` : <span className="skeleton skeleton-inline" />}</dd>
      </div>
      {rows.map((day, index) => (
        <div key={day?.department_id ?? index} className="stat">
          <dt>{day?.department ?? <span className="skeleton skeleton-inline" />}</dt>
          <dd>
            {day ? (
              `${day.in_bed_at_midnight} of ${day.beds}${day.occupancy_percent === null ? '' : ` · ${day.occupancy_percent}%`}`
            ) : (
              <span className="skeleton skeleton-inline" />
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
