/**
 * One test's values over time (issue 48): dots at their true times over the reference band, joined only between
 * neighbouring values, so a missing value (a rejected specimen, a test not yet resulted) leaves a gap rather than a
 * line drawn through it. Drawn in SVG that scales to a phone's width, with the same values in a table beside it.
 */
import { useId } from 'react';
import { formatDateTime, formatInstantDate } from '../format.ts';
import { FLAG_LABELS, isCriticalFlag } from './lab-labels.ts';

export interface TrendPoint {
  /** When the value was true (an instant). */
  at: string;
  /** Null: the test was ordered then but has no value. */
  value: number | null;
  flag: keyof typeof FLAG_LABELS | null;
}

interface TrendChartProps {
  name: string;
  unit: string | null;
  reference: { low: number | null; high: number | null } | null;
  points: TrendPoint[];
}

const W = 360;
const H = 170;
const PAD = { left: 46, right: 14, top: 12, bottom: 26 };

const tick = (n: number) => String(Number(n.toPrecision(3)));

/** The runs of neighbouring values: a point without a value ends one. */
function runsOf(points: { x: number; y: number | null }[]): { x: number; y: number }[][] {
  const runs: { x: number; y: number }[][] = [[]];
  for (const p of points) {
    if (p.y === null) runs.push([]);
    else runs.at(-1)?.push({ x: p.x, y: p.y });
  }
  return runs.filter((run) => run.length > 1);
}

export function TrendChart({ name, unit, reference, points }: TrendChartProps) {
  const id = useId();
  const sorted = [...points].sort((a, b) => a.at.localeCompare(b.at));
  const values = sorted.flatMap((p) => (p.value === null ? [] : [p.value]));
  const bounds = [...values, reference?.low ?? values[0] ?? 0, reference?.high ?? values[0] ?? 0];
  let [lo, hi] = [Math.min(...bounds), Math.max(...bounds)];
  const margin = hi === lo ? Math.abs(hi) * 0.1 || 1 : (hi - lo) * 0.12;
  [lo, hi] = [lo - margin, hi + margin];
  const times = sorted.map((p) => new Date(p.at).getTime());
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  const x = (t: number) =>
    t1 === t0 ? (PAD.left + W - PAD.right) / 2 : PAD.left + ((t - t0) / (t1 - t0)) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + ((hi - v) / (hi - lo)) * (H - PAD.top - PAD.bottom);
  const placed = sorted.map((p, i) => ({ ...p, x: x(times[i] ?? t0), y: p.value === null ? null : y(p.value) }));
  const unitText = unit && unit !== '1' ? ` ${unit}` : '';
  const first = sorted[0];
  const last = sorted.at(-1);

  return (
    <figure className="trend" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="trend-title">
        {name}
        {unitText && <span className="muted"> ({unit})</span>}
      </figcaption>
      <div className="trend-body">
        <svg
          className="trend-chart"
          viewBox={`0 0 ${W} ${H}`}
          role="img"
          aria-label={`${name}: ${values.length} values over time; the table beside it lists them`}
        >
          {reference && (reference.low !== null || reference.high !== null) && (
            <rect
              className="trend-band"
              x={PAD.left}
              width={W - PAD.left - PAD.right}
              y={y(reference.high ?? hi)}
              height={y(reference.low ?? lo) - y(reference.high ?? hi)}
            />
          )}
          <line className="trend-axis" x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={H - PAD.bottom} />
          <line className="trend-axis" x1={PAD.left} x2={W - PAD.right} y1={H - PAD.bottom} y2={H - PAD.bottom} />
          {[hi - margin, (hi + lo) / 2, lo + margin].map((v) => (
            <text key={v} className="trend-tick" x={PAD.left - 6} y={y(v) + 4} textAnchor="end">
              {tick(v)}
            </text>
          ))}
          {first && (
            <text className="trend-tick" x={PAD.left} y={H - 8} textAnchor="start">
              {formatInstantDate(first.at)}
            </text>
          )}
          {last && last !== first && (
            <text className="trend-tick" x={W - PAD.right} y={H - 8} textAnchor="end">
              {formatInstantDate(last.at)}
            </text>
          )}
          {runsOf(placed).map((run) => (
            <polyline key={`${run[0]?.x}`} className="trend-line" points={run.map((p) => `${p.x},${p.y}`).join(' ')} />
          ))}
          {placed.map((p) =>
            p.y === null ? (
              <path key={p.at} className="trend-gap" d={`M${p.x - 4} ${H - PAD.bottom - 8}l8 8m0 -8l-8 8`} />
            ) : (
              <circle
                key={p.at}
                className={`trend-dot${isCriticalFlag(p.flag) ? ' critical' : p.flag && p.flag !== 'N' ? ' abnormal' : ''}`}
                cx={p.x}
                cy={p.y}
                r="4"
              />
            ),
          )}
        </svg>
        <table className="trend-table">
          <caption className="visually-hidden">{name} values over time</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Value</th>
              <th scope="col">Flag</th>
            </tr>
          </thead>
          <tbody>
            {[...sorted].reverse().map((p) => (
              <tr key={p.at}>
                <td>{formatDateTime(p.at)}</td>
                <td>{p.value === null ? 'No value' : `${p.value}${unitText}`}</td>
                <td>{p.flag ? FLAG_LABELS[p.flag] || 'Normal' : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

/** One result as a trend takes it: its test, and its value (null when it has none, which draws a gap). */
export interface TrendEntry {
  code: string;
  name: string;
  unit: string | null;
  reference: TrendChartProps['reference'];
  point: TrendPoint;
}

/** The trends of a set of results: one per test code with two values or more; unit and range from its latest value. */
function trendsOf(entries: TrendEntry[]): TrendChartProps[] {
  const byCode = new Map<string, TrendChartProps>();
  const newest = [...entries].sort((a, b) => b.point.at.localeCompare(a.point.at));
  for (const { code, name, unit, reference, point } of newest) {
    const trend = byCode.get(code) ?? { name, unit: null, reference: null, points: [] };
    trend.points.push(point);
    if (point.value !== null && trend.unit === null) Object.assign(trend, { unit, reference });
    byCode.set(code, trend);
  }
  return [...byCode.values()].filter((t) => t.points.filter((p) => p.value !== null).length > 1);
}

/** The Trends section of a results page; nothing when no test has two values yet. */
export function Trends({ entries }: { entries: TrendEntry[] }) {
  const trends = trendsOf(entries);
  if (trends.length === 0) return null;
  return (
    <section className="lab-trends" aria-labelledby="trends-heading">
      <h2 id="trends-heading">Trends</h2>
      {trends.map((trend) => (
        <TrendChart key={trend.name} {...trend} />
      ))}
    </section>
  );
}
