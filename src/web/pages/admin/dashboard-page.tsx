import type {
  AppointmentsPerDayJson,
  DayCount,
  Statistics,
  TopDoctorJson,
} from '../../../domain/reports/reports-shapes.ts';
import { formatDate, formatMonthDay } from '../../format.ts';
import { AwardIcon } from '../../components/icons.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { PanelBody } from '../../components/list-states.tsx';
import { useLoaded } from '../../components/use-fetched.ts';
import { endpoints, images } from '../../paths.ts';
import { PatientTable } from './patient-table.tsx';
import { WardOccupancyCard } from './ward-occupancy-card.tsx';

export default function AdminDashboardPage() {
  return (
    <>
      <PageHeader title="Dashboard" />
      <div className="dashboard-grid">
        <TopDoctorCard />
        <HospitalityStatus />
      </div>
      <WardOccupancyCard />
      <AppointmentsChart />
      {/* Not a named region: the table inside is one already, named "Patients" by its caption. */}
      <section className="dashboard-section">
        <h2>Patients</h2>
        <PatientTable />
      </section>
    </>
  );
}

/** 'Doctor Of the year': the doctor with the most completed visits. */
function TopDoctorCard() {
  const { loaded, retry } = useLoaded<TopDoctorJson>(endpoints.admin.topDoctor, 'top doctor');
  return (
    <section className="card top-doctor" aria-labelledby="top-doctor-heading">
      <h2 id="top-doctor-heading">
        <AwardIcon className="award" /> Doctor Of the year
      </h2>
      <PanelBody
        loaded={loaded}
        retry={retry}
        what="The doctor of the year"
        skeleton={<TopDoctor doctor={null} placeholder />}
      >
        {({ top_doctor }) => <TopDoctor doctor={top_doctor} />}
      </PanelBody>
    </section>
  );
}

function TopDoctor({ doctor, placeholder = false }: { doctor: TopDoctorJson['top_doctor']; placeholder?: boolean }) {
  const fill = (text: string | null | undefined) =>
    placeholder ? <span className="skeleton skeleton-inline" /> : text;
  return (
    <>
      <img
        className="avatar-large"
        src={doctor?.patient_img || images.defaultAvatar}
        alt={doctor?.name ?? ''}
        width="96"
        height="96"
      />
      <p className="top-doctor-name">{doctor || placeholder ? fill(doctor?.name) : 'No visits completed yet'}</p>
      <p className="top-doctor-specialization">{fill(doctor?.specialization)}</p>
      <dl className="counts">
        <div>
          <dt>Dates</dt>
          <dd data-testid="top-doctor-dates">{placeholder ? fill('') : (doctor?.completed_appointments_count ?? 0)}</dd>
        </div>
        <div>
          <dt>Patient</dt>
          <dd data-testid="top-doctor-patients">{placeholder ? fill('') : (doctor?.patient_count ?? 0)}</dd>
        </div>
      </dl>
    </>
  );
}

const STATUS_ITEMS: [string, (stats: Statistics) => number][] = [
  ['Total Appointment', (stats) => stats.appointment_count],
  ['Total Patients', (stats) => stats.patient_count],
  ['Total Doctor', (stats) => stats.doctor_count],
  ['Diseases By Doctor', (stats) => stats.average_diseases_per_doctor],
];

function HospitalityStatus() {
  const { loaded, retry } = useLoaded<Statistics>(endpoints.admin.statistics, 'statistics');
  const grid = (stats: Statistics | null) => (
    <dl className="stat-grid">
      {STATUS_ITEMS.map(([label, value]) => (
        <div key={label} className="stat">
          <dt>{label}</dt>
          <dd>{stats ? value(stats) : <span className="skeleton skeleton-inline" />}</dd>
        </div>
      ))}
    </dl>
  );
  return (
    <section className="card hospitality" aria-labelledby="status-heading">
      <h2 id="status-heading">Hospitality Status</h2>
      <PanelBody loaded={loaded} retry={retry} what="Statistics" skeleton={grid(null)}>
        {grid}
      </PanelBody>
    </section>
  );
}

const CHART_W = 720;
const CHART_H = 220;
const PAD = { top: 16, right: 12, bottom: 40, left: 36 };

function AppointmentsChart() {
  const { loaded, retry } = useLoaded<AppointmentsPerDayJson>(
    endpoints.admin.appointmentsPerDay,
    'appointments per day',
    { days: 30 },
  );
  return (
    <section className="card chart-card" aria-labelledby="chart-heading">
      <h2 id="chart-heading">Appointments per day (last 30 days)</h2>
      <PanelBody
        loaded={loaded}
        retry={retry}
        what="Appointments per day"
        skeleton={<BarChart days={[]} placeholder />}
      >
        {({ days }) => <BarChart days={days} />}
      </PanelBody>
    </section>
  );
}

/** Appointments per day over the last 30 days, as an inline SVG bar chart with a title and description; its frame alone as a placeholder. */
function BarChart({ days, placeholder = false }: { days: DayCount[]; placeholder?: boolean }) {
  const max = Math.max(1, ...days.map((d) => d.count));
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const innerW = CHART_W - PAD.left - PAD.right;
  const innerH = CHART_H - PAD.top - PAD.bottom;
  const step = days.length > 0 ? innerW / days.length : innerW;
  const busiest = days.reduce<DayCount | null>((best, d) => (!best || d.count > best.count ? d : best), null);
  const [first, last] = [days[0], days.at(-1)];
  const description =
    total === 0 || !first || !last || !busiest
      ? 'No appointments in these 30 days.'
      : `${total} appointments from ${first.date} to ${last.date}; busiest day ${busiest.date} with ${busiest.count}.`;

  return (
    <svg
      className="bar-chart"
      viewBox={`0 0 ${CHART_W} ${CHART_H}`}
      role="img"
      aria-labelledby="chart-title chart-desc"
    >
      <title id="chart-title">Appointments per day over the last 30 days</title>
      <desc id="chart-desc">{description}</desc>
      <line x1={PAD.left} y1={PAD.top + innerH} x2={CHART_W - PAD.right} y2={PAD.top + innerH} className="axis" />
      <text x={PAD.left - 6} y={PAD.top + 4} className="axis-label" textAnchor="end">
        {max}
      </text>
      <text x={PAD.left - 6} y={PAD.top + innerH} className="axis-label" textAnchor="end">
        0
      </text>
      {days.map((d, i) => {
        const h = (d.count / max) * innerH;
        const x = PAD.left + i * step + step * 0.15;
        return (
          <g key={d.date}>
            <rect x={x} y={PAD.top + innerH - h} width={step * 0.7} height={h} className="bar">
              <title>{`${formatDate(d.date)}: ${d.count}`}</title>
            </rect>
            {i % 5 === 0 || i === days.length - 1 ? (
              <text x={x + step * 0.35} y={CHART_H - PAD.bottom + 16} className="axis-label" textAnchor="middle">
                {formatMonthDay(d.date)}
              </text>
            ) : null}
          </g>
        );
      })}
      {total === 0 && !placeholder && (
        <text x={CHART_W / 2} y={PAD.top + innerH / 2} className="chart-empty" textAnchor="middle">
          No appointments in these 30 days
        </text>
      )}
    </svg>
  );
}
