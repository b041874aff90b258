import { availableParallelism, loadavg } from 'node:os';
import Table from 'cli-table3';
import { cpuPerRequestUs, nth, round, type Measurement } from './load.ts';
import { sameStatements, type RoundTrips, type Statements } from './statements.ts';
import type { PageWeight } from './ui-weight.ts';

export const TARGETS = {
  /** Medora's requests per second over its bare twin's in the same run, per read endpoint and per write. */
  readTwinRatio: 0.95,
  writeTwinRatio: 0.9,
  /** p50 at the largest scale over p50 at the smallest, per read endpoint. */
  p50Growth: 1.5,
  uiJsGzipKB: 100,
  peakRssMiB: 300,
} as const;

/** One endpoint, a read or a write, driven on Medora and on its bare twin in the same rounds. */
export interface ReadPair {
  name: string;
  medora: Measurement;
  twin: Measurement;
  /** Medora's requests per second over the twin's in each round, the two turns of a round back to back. */
  roundRatios: number[];
  /** The p50 of each round's turn, for the growth from one scale to another measured in the same rounds. */
  roundP50Ms: { medora: number[]; twin: number[] };
}

/** The reads at one size of the hospital. */
export interface ScaleRun {
  scale: number;
  dataset: { counts: Record<string, number>; seconds: number };
  reads: ReadPair[];
}

export interface BenchRun {
  startedAt: string;
  database: 'postgres' | 'pglite';
  /** The load averages (1, 5, 15 min) when the run started and ended: what else the machine was doing. */
  machine: { cpus: number; node: string; platform: string; loadAverage?: { start: number[]; end: number[] } };
  clinicTimeZone: string;
  /** `together`: each round loads every server at once (PostgreSQL); otherwise one server after another (PGlite). */
  load: { connections: number; seconds: number; rounds: number; together: boolean };
  /** Smallest first; the writes, the login burst and the memory figures are of the last, the largest. */
  scales: ScaleRun[];
  /** The booking, the record and the payment against their twins, each request on a target of its own. */
  writePairs: ReadPair[];
  /** The statements of one request of each write, on Medora and on its twin. */
  roundTrips: RoundTrips[];
  /** Medora alone: the sign-ins. */
  writes: Measurement[];
  /** A read endpoint and logins at the same time: the read's p99 shows whether hashing blocks the event loop. */
  loginBurst: { login: Measurement; read: Measurement };
  peakRssMiB: { medora: number; twins: number };
  ui: PageWeight[];
}

export interface TargetCheck {
  target: string;
  actual: string;
  met: boolean;
}

/**
 * The median of the rounds' ratios: a neighbour's burst on a shared machine that falls on one turn moves one
 * round's ratio, not the result, as it would move a ratio of totals.
 */
export const ratioOf = (pair: ReadPair) => round(median(pair.roundRatios), 3);

export const median = (values: number[]) => quantile(values, 0.5);

/** The `q` quantile, interpolated between the two nearest values; 0 for no values. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  return nth(sorted, below) + (nth(sorted, Math.ceil(at)) - nth(sorted, below)) * (at - below);
}

/** The middle half of the rounds' ratios, to show how much the machine moved them. */
export const ratioSpread = (pair: ReadPair): [number, number] => [
  round(quantile(pair.roundRatios, 0.25), 2),
  round(quantile(pair.roundRatios, 0.75), 2),
];
/** The machine a bench script ran on and its load averages (1, 5, 15 min) at the end, as the JSON figures name them. */
export const benchMachine = () => ({
  cpus: availableParallelism(),
  node: process.versions.node,
  platform: `${process.platform}-${process.arch}`,
  load_average: loadavg().map((n) => round(n, 2)),
});

export const percent = (scale: number) => `${round(scale * 100, 2).toLocaleString('en-US')} %`;
const largest = (run: BenchRun) => nth(run.scales, run.scales.length - 1);

export interface GrowthRow {
  name: string;
  /** Medora's p50 at each scale of the run, smallest first; undefined where the endpoint was not driven. */
  p50Ms: (number | undefined)[];
  twinP50Ms: (number | undefined)[];
  /** p50 at the largest scale over p50 at the smallest, for Medora and for the twin. */
  growth?: number;
  twinGrowth?: number;
}

/**
 * The median over the rounds of the larger hospital's latency over the smaller's in the same round; undefined when
 * a round of either answered nothing (it has no latency: the growth is then not measured, never 0 ×).
 */
export function roundGrowth(first: number[], last: number[]): number | undefined {
  const rounds = Math.min(first.length, last.length);
  const unanswered = [...first.slice(0, rounds), ...last.slice(0, rounds)].some((ms) => !(ms > 0));
  return rounds === 0 || unanswered
    ? undefined
    : round(median(Array.from({ length: rounds }, (_, r) => nth(last, r) / nth(first, r))), 2);
}

/**
 * How each read's p50 grows from the smallest hospital of the run to the largest: the median, over the rounds,
 * of the largest hospital's p50 over the smallest's in the same round (the scales take their turns in each round).
 */
export function growthRows(run: BenchRun): GrowthRow[] {
  const grown = (first: number[] | undefined, last: number[] | undefined) =>
    run.scales.length < 2 || !first || !last ? undefined : roundGrowth(first, last);
  return largest(run).reads.map(({ name }) => {
    const at = run.scales.map((s) => s.reads.find((pair) => pair.name === name));
    const [first, last] = [at[0], at[at.length - 1]];
    return {
      name,
      p50Ms: at.map((pair) => pair?.medora.p50Ms),
      twinP50Ms: at.map((pair) => pair?.twin.p50Ms),
      growth: grown(first?.roundP50Ms.medora, last?.roundP50Ms.medora),
      twinGrowth: grown(first?.roundP50Ms.twin, last?.roundP50Ms.twin),
    };
  });
}

/** Every target of the issue, checked against one run; absolute latencies are reported, not targets. */
export function checkTargets(run: BenchRun): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const top = largest(run);
  const twinChecks = [
    ...top.reads.map((pair) => ({ pair, target: TARGETS.readTwinRatio })),
    ...run.writePairs.map((pair) => ({ pair, target: TARGETS.writeTwinRatio })),
  ];
  for (const { pair, target } of twinChecks) {
    const ratio = ratioOf(pair);
    checks.push({
      target: `${pair.name}: Medora ≥ ${target} × its twin at ${percent(top.scale)}`,
      actual: `${round(ratio, 2)} ×`,
      met: ratio >= target,
    });
  }
  for (const trips of run.roundTrips) {
    const { medora, twin } = trips;
    checks.push({
      target: `${trips.name}: the twin sends Medora's statements`,
      actual: `${statementCount(medora)} on Medora, ${statementCount(twin)} on the twin`,
      met: sameStatements(trips),
    });
  }
  if (run.scales.length > 1) {
    const from = percent(nth(run.scales, 0).scale);
    for (const row of growthRows(run)) {
      checks.push({
        target: `${row.name}: p50 at ${percent(top.scale)} ≤ ${TARGETS.p50Growth} × p50 at ${from}`,
        actual: row.growth === undefined ? 'not measured' : `${row.growth} ×`,
        met: row.growth !== undefined && row.growth <= TARGETS.p50Growth,
      });
    }
  }
  const withTwin = (pair: ReadPair) => [pair.medora, { ...pair.twin, name: `twin ${pair.twin.name}` }];
  const measured = [
    ...run.scales.flatMap((s) => s.reads.flatMap(withTwin).map((m) => ({ m, at: s.scale }))),
    ...run.writePairs.flatMap(withTwin).map((m) => ({ m, at: top.scale })),
    ...[...run.writes, run.loginBurst.login, run.loginBurst.read].map((m) => ({ m, at: top.scale })),
  ];
  const failing = measured.filter(({ m }) => m.errors > 0);
  checks.push({
    target: 'no unexpected answers, on Medora or a twin',
    actual:
      failing.length === 0
        ? '0 errors'
        : failing.map(({ m, at }) => `${m.name} at ${percent(at)}: ${m.errors}`).join('; '),
    met: failing.length === 0,
  });
  for (const page of run.ui.filter((p) => p.page === '/' || p.page === '/login')) {
    const kb = page.jsGzipBytes / 1000;
    checks.push({
      target: `JS for ${page.page} ≤ ${TARGETS.uiJsGzipKB} KB gzip`,
      actual: `${round(kb, 1)} KB`,
      met: kb <= TARGETS.uiJsGzipKB,
    });
  }
  checks.push({
    target: `server peak RSS ≤ ${TARGETS.peakRssMiB} MiB`,
    actual: `${run.peakRssMiB.medora} MiB`,
    met: run.peakRssMiB.medora <= TARGETS.peakRssMiB,
  });
  return checks;
}

/** Statements of one request: those in its transactions (begin and commit included) plus those outside. */
const statementCount = (s: Statements) => `${s.inTransaction.length} + ${s.outside.length}`;

// Plain text: the tables also land in files and CI logs, where colour codes are noise.
const style = { head: [], border: [] };

function ratioTable(pairs: ReadPair[]): string {
  const ratios = new Table({
    head: [
      'endpoint',
      'Medora req/s',
      'twin req/s',
      'ratio',
      'middle half',
      'p50 ms',
      'p99 ms',
      'twin p50',
      'twin p99',
      'CPU µs/req',
    ],
    style,
  });
  for (const pair of pairs) {
    const { medora, twin } = pair;
    ratios.push([
      pair.name,
      medora.requestsPerSecond,
      twin.requestsPerSecond,
      `${round(ratioOf(pair), 2)} ×`,
      ratioSpread(pair).join('–'),
      medora.p50Ms,
      medora.p99Ms,
      twin.p50Ms,
      twin.p99Ms,
      `${cpuPerRequestUs(medora) ?? '–'} / ${cpuPerRequestUs(twin) ?? '–'}`,
    ]);
  }
  return ratios.toString();
}

/** Each write's statements per request on Medora and on its twin, and every statement of Medora's, in order. */
export function roundTripLines(roundTrips: RoundTrips[]): string[] {
  const table = new Table({
    head: [
      'write',
      'transactions',
      'in them (begin, commit too)',
      'outside',
      'twin: in them',
      'twin: outside',
      'same SQL',
    ],
    style,
  });
  for (const trips of roundTrips) {
    const { medora, twin } = trips;
    table.push([
      trips.name,
      medora.transactions,
      medora.inTransaction.length,
      medora.outside.length,
      twin.inTransaction.length,
      twin.outside.length,
      sameStatements(trips) ? 'yes' : 'NO',
    ]);
  }
  return [
    table.toString(),
    ...roundTrips.flatMap(({ name, medora }) => [
      `  ${name} on Medora:`,
      ...medora.outside.map((sql) => `    outside: ${sql}`),
      ...medora.inTransaction.map((sql, i) => `    ${String(i + 1).padStart(2)}. ${sql}`),
    ]),
  ];
}

export function renderReport(run: BenchRun, checks: TargetCheck[]): string {
  const top = largest(run);

  const ms = (n: number | undefined) => (n === undefined ? '–' : n);
  const times = (n: number | undefined) => (n === undefined ? '–' : `${n} ×`);
  const growth = new Table({
    head: ['endpoint', ...run.scales.map((s) => `p50 at ${percent(s.scale)}`), 'growth', 'twin growth'],
    style,
  });
  for (const row of growthRows(run))
    growth.push([row.name, ...row.p50Ms.map(ms), times(row.growth), times(row.twinGrowth)]);

  const signIns = new Table({ head: ['endpoint', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'requests', 'errors'], style });
  for (const m of [...run.writes, run.loginBurst.login, run.loginBurst.read]) {
    signIns.push([m.name, m.requestsPerSecond, m.p50Ms, m.p99Ms, m.maxMs, m.requests, m.errors]);
  }

  const ui = new Table({ head: ['page', 'files', 'JS', 'JS gzip', 'CSS', 'CSS gzip'], style });
  const kb = (bytes: number) => `${round(bytes / 1000, 1)} KB`;
  for (const p of run.ui)
    ui.push([p.page, p.files.length, kb(p.jsBytes), kb(p.jsGzipBytes), kb(p.cssBytes), kb(p.cssGzipBytes)]);

  const targets = new Table({ head: ['target', 'actual', ''], style });
  for (const c of checks) targets.push([c.target, c.actual, c.met ? 'met' : 'MISSED']);

  return [
    `Medora bench: ${run.database}, ${run.machine.cpus} CPUs, Node ${run.machine.node}` +
      (run.machine.loadAverage
        ? `, load average ${run.machine.loadAverage.start[0]} at the start and ${run.machine.loadAverage.end[0]} at the end`
        : '') +
      `. Each read: ${run.load.rounds} rounds of ` +
      `${run.load.seconds} s, ${run.load.connections} connections to each server, ` +
      (run.load.together
        ? 'Medora and its twin (at every scale) loaded at the same time'
        : "the twin's rounds first, then Medora's") +
      `; ratio and growth = medians of the rounds' ratios; CPU µs/req = the server's CPU time (all threads) per answer, Medora / twin`,
    ...run.scales.map(
      (s) =>
        `dataset at ${percent(s.scale)}: ${Object.entries(s.dataset.counts)
          .map(([k, n]) => `${n} ${k}`)
          .join(', ')} (${s.dataset.seconds} s)`,
    ),
    `Reads at ${percent(top.scale)}: Medora against its bare twin`,
    ratioTable(top.reads),
    ...(run.scales.length > 1 ? ["How Medora's p50 grows with the hospital", growth.toString()] : []),
    `Writes at ${percent(top.scale)}: Medora against its bare twin, each request on a target of its own`,
    ratioTable(run.writePairs),
    "Statements per write request (one request each, counted in the bench's process)",
    ...roundTripLines(run.roundTrips),
    `Sign-ins at ${percent(top.scale)}, Medora alone`,
    signIns.toString(),
    `peak RSS: Medora ${run.peakRssMiB.medora} MiB, twins ${run.peakRssMiB.twins} MiB`,
    ui.toString(),
    targets.toString(),
  ].join('\n');
}

/** bench/results.json: the run, its two tables and its target checks, in the API's snake_case. */
export function resultsJson(run: BenchRun, checks: TargetCheck[]): string {
  const measurement = (m: Measurement) => ({
    name: m.name,
    method: m.method,
    path: m.path,
    connections: m.connections,
    seconds: m.seconds,
    requests: m.requests,
    requests_per_sec: m.requestsPerSecond,
    p50_ms: m.p50Ms,
    p99_ms: m.p99Ms,
    max_ms: m.maxMs,
    ...(m.serverCpuUs !== undefined ? { server_cpu_us_per_req: cpuPerRequestUs(m) } : {}),
    errors: m.errors,
    status_codes: m.statusCodes,
    ...(m.firstError ? { first_error: m.firstError } : {}),
  });
  const pairJson = (pair: ReadPair) => ({
    name: pair.name,
    ratio: ratioOf(pair),
    round_ratios: pair.roundRatios.map((r) => round(r, 3)),
    round_p50_ms: pair.roundP50Ms,
    medora: measurement(pair.medora),
    twin: measurement(pair.twin),
  });
  const top = largest(run);
  return `${JSON.stringify(
    {
      started_at: run.startedAt,
      database: run.database,
      machine: {
        cpus: run.machine.cpus,
        node: run.machine.node,
        platform: run.machine.platform,
        ...(run.machine.loadAverage ? { load_average: run.machine.loadAverage } : {}),
      },
      clinic_time_zone: run.clinicTimeZone,
      load: run.load,
      scales: run.scales.map((s) => s.scale),
      datasets: run.scales.map((s) => ({ scale: s.scale, ...s.dataset.counts, generation_seconds: s.dataset.seconds })),
      ratio_table: { scale: top.scale, rows: top.reads.map(ratioRow) },
      write_ratio_table: { scale: top.scale, rows: run.writePairs.map(ratioRow) },
      round_trips: run.roundTrips.map((trips) => ({
        endpoint: trips.name,
        same_statements: sameStatements(trips),
        medora: statementsJson(trips.medora),
        twin: statementsJson(trips.twin),
      })),
      growth_table: {
        scales: run.scales.map((s) => s.scale),
        rows: growthRows(run).map((row) => ({
          endpoint: row.name,
          p50_ms: row.p50Ms.map((p) => p ?? null),
          growth: row.growth ?? null,
          twin_p50_ms: row.twinP50Ms.map((p) => p ?? null),
          twin_growth: row.twinGrowth ?? null,
        })),
      },
      reads: run.scales.map((s) => ({
        scale: s.scale,
        endpoints: s.reads.map(pairJson),
      })),
      write_pairs: run.writePairs.map(pairJson),
      writes: run.writes.map(measurement),
      login_burst: { login: measurement(run.loginBurst.login), read: measurement(run.loginBurst.read) },
      peak_rss_mib: run.peakRssMiB,
      ui: run.ui.map((p) => ({
        page: p.page,
        files: p.files,
        js_bytes: p.jsBytes,
        js_gzip_bytes: p.jsGzipBytes,
        css_bytes: p.cssBytes,
        css_gzip_bytes: p.cssGzipBytes,
      })),
      targets: checks,
    },
    null,
    2,
  )}\n`;
}

const ratioRow = (pair: ReadPair) => ({
  endpoint: pair.name,
  medora_req_per_sec: pair.medora.requestsPerSecond,
  twin_req_per_sec: pair.twin.requestsPerSecond,
  ratio: ratioOf(pair),
  ratio_middle_half: ratioSpread(pair),
  p50_ms: pair.medora.p50Ms,
  p99_ms: pair.medora.p99Ms,
  twin_p50_ms: pair.twin.p50Ms,
  twin_p99_ms: pair.twin.p99Ms,
  cpu_us_per_req: cpuPerRequestUs(pair.medora) ?? null,
  twin_cpu_us_per_req: cpuPerRequestUs(pair.twin) ?? null,
});

const statementsJson = (s: Statements) => ({
  transactions: s.transactions,
  in_transaction: s.inTransaction.length,
  outside: s.outside.length,
  statements: [...s.outside.map((sql) => `outside: ${sql}`), ...s.inTransaction],
});
