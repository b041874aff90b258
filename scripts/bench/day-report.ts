/**
 * The hospital day's figures, pure: each action's latencies into p50/p95/p99, its answers sorted into successes,
 * expected refusals (a slot someone else took first: 409) and errors; the CPU each action costs; the targets
 * checked; the table printed and written to the README.
 */

/** One answered (or failed) action as the load generator saw it. */
export interface Sample {
  action: string;
  ms: number;
  /** The HTTP status, or 0 when no answer came (a refused connection, a timeout). */
  status: number;
  /** True when the status is one this action may get in a correct run (409 on a slot taken first). */
  expected: boolean;
}

export interface ActionFigures {
  action: string;
  count: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Answers that were an expected refusal, by status (not errors, not successes). */
  expected: Record<string, number>;
  /** Anything other than 2xx/3xx or an expected refusal, by status (0: no answer). */
  errors: number;
  errorStatuses: Record<string, number>;
  /** The server processes' and their PostgreSQL backends' CPU per action, in µs, from the action run alone. */
  cpuUsPerAction?: number;
}

export const TARGETS = { p95Ms: 300, p99Ms: 1000, errors: 0, rssMiB: 300 } as const;

/** The nearest-rank percentile (the smallest value with at least p % of the values at or below it). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

const roundTo = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

export const isSuccess = (status: number) => status >= 200 && status < 400;

/** Each action's figures, in the order the actions are first named in `order` (then any others, by name). */
export function summarise(samples: readonly Sample[], order: readonly string[] = []): ActionFigures[] {
  const byAction = new Map<string, Sample[]>();
  for (const sample of samples) {
    const list = byAction.get(sample.action);
    if (list) list.push(sample);
    else byAction.set(sample.action, [sample]);
  }
  const rank = (action: string) => {
    const i = order.indexOf(action);
    return i === -1 ? order.length : i;
  };
  return [...byAction.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([action, list]) => {
      const sorted = list.map((s) => s.ms).sort((a, b) => a - b);
      const expected: Record<string, number> = {};
      const errorStatuses: Record<string, number> = {};
      for (const { status, expected: isExpected } of list) {
        if (isSuccess(status)) continue;
        const bucket = isExpected ? expected : errorStatuses;
        bucket[status] = (bucket[status] ?? 0) + 1;
      }
      return {
        action,
        count: list.length,
        p50Ms: roundTo(percentile(sorted, 50), 1),
        p95Ms: roundTo(percentile(sorted, 95), 1),
        p99Ms: roundTo(percentile(sorted, 99), 1),
        maxMs: roundTo(sorted.at(-1) ?? 0, 1),
        expected,
        errors: Object.values(errorStatuses).reduce((sum, n) => sum + n, 0),
        errorStatuses,
      };
    });
}

/** CPU time over the count, in µs per action; undefined when nothing was counted. */
export function cpuPerAction(cpuUs: number, count: number): number | undefined {
  return count > 0 ? Math.round(cpuUs / count) : undefined;
}

/** What misses a target, one line each; empty when every action and instance meets them. */
export function missedTargets(actions: readonly ActionFigures[], peakRssMiB: readonly number[]): string[] {
  const missed: string[] = [];
  for (const a of actions) {
    if (a.p95Ms > TARGETS.p95Ms) missed.push(`${a.action}: p95 ${a.p95Ms} ms > ${TARGETS.p95Ms} ms`);
    if (a.p99Ms > TARGETS.p99Ms) missed.push(`${a.action}: p99 ${a.p99Ms} ms > ${TARGETS.p99Ms} ms`);
    if (a.errors > TARGETS.errors)
      missed.push(`${a.action}: ${a.errors} errors (${describeStatuses(a.errorStatuses)})`);
  }
  peakRssMiB.forEach((rss, i) => {
    if (rss > TARGETS.rssMiB) missed.push(`instance ${i + 1}: peak RSS ${rss} MiB > ${TARGETS.rssMiB} MiB`);
  });
  return missed;
}

/** `{409: 3, 0: 1}` as "409 × 3, no answer × 1". */
export function describeStatuses(statuses: Readonly<Record<string, number>>): string {
  const parts = Object.entries(statuses).map(([status, n]) => `${status === '0' ? 'no answer' : status} × ${n}`);
  return parts.length ? parts.join(', ') : '—';
}

/** The Markdown table of the actions, as the README shows it. */
export function actionTable(actions: readonly ActionFigures[]): string {
  const rows = actions.map((a) =>
    [
      a.action,
      a.count,
      a.p50Ms,
      a.p95Ms,
      a.p99Ms,
      a.errors === 0 ? '0' : `${a.errors} (${describeStatuses(a.errorStatuses)})`,
      describeStatuses(a.expected),
      a.cpuUsPerAction ?? '—',
    ].join(' | '),
  );
  return [
    '| action | count | p50 ms | p95 ms | p99 ms | errors | expected refusals | CPU µs/action |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}

/** `value` with every object key in snake_case (p95Ms → p95_ms, peakRssMiB → peak_rss_mib), as bench/results.json writes its figures. */
export function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key
        .replace(/MiB/g, 'Mib')
        .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
        .toLowerCase(),
      snakeCaseKeys(inner),
    ]),
  );
}
