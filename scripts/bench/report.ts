import Table from 'cli-table3';
import { round, type Measurement } from './load.ts';
import type { PageWeight } from './ui-weight.ts';

export const TARGETS = {
  baselineRatio: 0.8,
  uiJsGzipKB: 100,
  peakRssMiB: 300,
} as const;

export interface BenchRun {
  startedAt: string;
  scale: number;
  database: 'postgres' | 'pglite';
  machine: { cpus: number; node: string; platform: string };
  clinicTimeZone: string;
  dataset: { counts: Record<string, number>; seconds: number };
  load: { connections: number; seconds: number };
  baseline: Measurement;
  endpoints: Measurement[];
  /** A read endpoint and logins at the same time: the read's p99 shows whether hashing blocks the event loop. */
  loginBurst: { login: Measurement; read: Measurement };
  peakRssMiB: { medora: number; baseline: number };
  ui: PageWeight[];
}

export interface TargetCheck {
  target: string;
  actual: string;
  met: boolean;
}

/** Every target of the issue, checked against one run. */
export function checkTargets(run: BenchRun): TargetCheck[] {
  const doctors = run.endpoints.find((m) => m.name === 'GET /api/doctors');
  const ratio = doctors ? doctors.requestsPerSecond / run.baseline.requestsPerSecond : 0;
  const checks: TargetCheck[] = [
    { target: `GET /api/doctors ≥ ${TARGETS.baselineRatio} × baseline`, actual: `${round(ratio, 2)} ×`, met: ratio >= TARGETS.baselineRatio },
  ];
  for (const m of [...run.endpoints, run.loginBurst.read]) {
    if (m.p99TargetMs !== undefined) {
      checks.push({ target: `${m.name} p99 < ${m.p99TargetMs} ms`, actual: `${m.p99Ms} ms`, met: m.p99Ms < m.p99TargetMs });
    }
  }
  for (const m of [...run.endpoints, run.loginBurst.login, run.loginBurst.read]) {
    checks.push({ target: `${m.name} no unexpected answers`, actual: `${m.errors} errors`, met: m.errors === 0 });
  }
  for (const page of run.ui.filter((p) => p.page === '/' || p.page === '/login')) {
    const kb = page.jsGzipBytes / 1000;
    checks.push({ target: `JS for ${page.page} ≤ ${TARGETS.uiJsGzipKB} KB gzip`, actual: `${round(kb, 1)} KB`, met: kb <= TARGETS.uiJsGzipKB });
  }
  checks.push({
    target: `server peak RSS ≤ ${TARGETS.peakRssMiB} MiB`,
    actual: `${run.peakRssMiB.medora} MiB`,
    met: run.peakRssMiB.medora <= TARGETS.peakRssMiB,
  });
  return checks;
}

export function renderReport(run: BenchRun, checks: TargetCheck[]): string {
  // Plain text: the table also lands in files and CI logs, where colour codes are noise.
  const style = { head: [], border: [] };
  const load = new Table({ head: ['endpoint', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'requests', 'errors'], style });
  const row = (label: string, m: Measurement) => [label, m.requestsPerSecond, m.p50Ms, m.p99Ms, m.maxMs, m.requests, m.errors];
  load.push(row('baseline GET /api/doctors', run.baseline));
  for (const m of run.endpoints) load.push(row(m.name, m));
  load.push(row(run.loginBurst.login.name, run.loginBurst.login));
  load.push(row(run.loginBurst.read.name, run.loginBurst.read));

  const ui = new Table({ head: ['page', 'files', 'JS', 'JS gzip', 'CSS', 'CSS gzip'], style });
  const kb = (bytes: number) => `${round(bytes / 1000, 1)} KB`;
  for (const p of run.ui) ui.push([p.page, p.files.length, kb(p.jsBytes), kb(p.jsGzipBytes), kb(p.cssBytes), kb(p.cssGzipBytes)]);

  const targets = new Table({ head: ['target', 'actual', ''], style });
  for (const c of checks) targets.push([c.target, c.actual, c.met ? 'met' : 'MISSED']);

  return [
    `Medora bench: scale ${run.scale}, ${run.database}, ${run.load.connections} connections × ${run.load.seconds} s per endpoint, ` +
      `${run.machine.cpus} CPUs, Node ${run.machine.node}`,
    `dataset: ${Object.entries(run.dataset.counts).map(([k, n]) => `${n} ${k}`).join(', ')} (${run.dataset.seconds} s)`,
    load.toString(),
    `peak RSS: Medora ${run.peakRssMiB.medora} MiB, baseline ${run.peakRssMiB.baseline} MiB`,
    ui.toString(),
    targets.toString(),
  ].join('\n');
}

/** bench/results.json: the run and its target checks, in the API's snake_case. */
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
    errors: m.errors,
    status_codes: m.statusCodes,
    ...(m.firstError ? { first_error: m.firstError } : {}),
  });
  const doctors = run.endpoints.find((m) => m.name === 'GET /api/doctors');
  return JSON.stringify(
    {
      started_at: run.startedAt,
      scale: run.scale,
      database: run.database,
      machine: run.machine,
      clinic_time_zone: run.clinicTimeZone,
      dataset: { ...run.dataset.counts, generation_seconds: run.dataset.seconds },
      load: run.load,
      baseline: measurement(run.baseline),
      baseline_ratio: doctors ? round(doctors.requestsPerSecond / run.baseline.requestsPerSecond, 3) : null,
      endpoints: run.endpoints.map(measurement),
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
  ) + '\n';
}
