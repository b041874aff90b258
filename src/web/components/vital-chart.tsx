/**
 * One vital over a stay as an SVG line: a set that lacks the value breaks the line (a gap, never interpolated
 * across); NEWS2's medium (5–6) and high (≥7) bands lie behind the score's chart.
 */
interface Point {
  at: string;
  value: number | null;
}

const WIDTH = 720;
const HEIGHT = 160;
const PAD = { left: 40, right: 10, top: 10, bottom: 20 };

export function VitalChart({
  title,
  points,
  bands = false,
  unit,
}: {
  title: string;
  points: Point[];
  bands?: boolean;
  unit: string;
}) {
  const measured = points.filter((p): p is { at: string; value: number } => p.value !== null);
  if (measured.length === 0) return null;
  const times = points.map((p) => Date.parse(p.at));
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  const values = measured.map((p) => p.value);
  const [low, high] = bands ? [0, Math.max(10, ...values)] : [Math.min(...values), Math.max(...values)];
  const span = high - low || 1;
  const x = (at: string) => PAD.left + ((Date.parse(at) - t0) / (t1 - t0 || 1)) * (WIDTH - PAD.left - PAD.right);
  const y = (value: number) => HEIGHT - PAD.bottom - ((value - low) / span) * (HEIGHT - PAD.top - PAD.bottom);
  // Runs of consecutive sets that all have the value: each is one polyline, so a missing value leaves a gap.
  const runs: Point[][] = [];
  let run: Point[] = [];
  for (const point of points) {
    if (point.value === null) {
      if (run.length > 0) runs.push(run);
      run = [];
    } else run.push(point);
  }
  if (run.length > 0) runs.push(run);
  const band = (from: number, to: number, className: string) => (
    <rect
      className={className}
      x={PAD.left}
      width={WIDTH - PAD.left - PAD.right}
      y={y(Math.min(to, high))}
      height={Math.max(0, y(from) - y(Math.min(to, high)))}
    />
  );
  return (
    <figure className="card">
      <figcaption>
        <strong>{title}</strong> <span className="muted">({unit})</span>
      </figcaption>
      <svg
        className="flowsheet-chart"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`${title} over the stay`}
      >
        {bands && band(5, 6.5, 'band-medium')}
        {bands && band(6.5, high, 'band-high')}
        <text x={4} y={y(high) + 4}>
          {high}
        </text>
        <text x={4} y={y(low)}>
          {low}
        </text>
        {runs.map((r) => (
          <polyline
            key={r[0]?.at}
            className="series"
            points={r.map((p) => `${x(p.at)},${y(p.value ?? low)}`).join(' ')}
          />
        ))}
        {measured.map((p) => (
          <circle key={p.at} className="point" cx={x(p.at)} cy={y(p.value)} r={3}>
            <title>{`${p.value} at ${p.at}`}</title>
          </circle>
        ))}
      </svg>
    </figure>
  );
}
