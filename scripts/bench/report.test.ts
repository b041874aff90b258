import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Measurement } from './load.ts';
import { checkTargets, resultsJson, type BenchRun } from './report.ts';

const measurement = (name: string, over: Partial<Measurement> = {}): Measurement => ({
  name,
  method: 'GET',
  path: name.split(' ')[1] ?? '/',
  connections: 32,
  seconds: 10,
  requests: 10_000,
  requestsPerSecond: 1000,
  p50Ms: 10,
  p99Ms: 30,
  maxMs: 60,
  errors: 0,
  statusCodes: { '200': 10_000 },
  p99TargetMs: 50,
  ...over,
});

const run = (over: Partial<BenchRun> = {}): BenchRun => ({
  startedAt: '2025-01-01T00:00:00.000Z',
  scale: 1,
  database: 'postgres',
  machine: { cpus: 2, node: '20', platform: 'linux-x64' },
  clinicTimeZone: 'Etc/GMT',
  dataset: { counts: { appointments: 1_000_000 }, seconds: 60 },
  load: { connections: 32, seconds: 10 },
  baseline: measurement('baseline GET /api/doctors', { requestsPerSecond: 1200 }),
  endpoints: [measurement('GET /api/doctors'), measurement('POST /api/appointments/book', { p99Ms: 80, p99TargetMs: 100 })],
  loginBurst: { login: measurement('POST /api/login', { p99TargetMs: undefined }), read: measurement('GET /api/doctors') },
  peakRssMiB: { medora: 180, baseline: 90 },
  ui: [{ page: '/', files: [], jsBytes: 250_000, jsGzipBytes: 82_000, cssBytes: 0, cssGzipBytes: 0 }],
  ...over,
});

describe('checkTargets', () => {
  it('meets every target of a run within them', () => {
    const checks = checkTargets(run());
    assert.ok(checks.every((c) => c.met), JSON.stringify(checks.filter((c) => !c.met)));
    assert.equal(checks.find((c) => c.target.includes('baseline'))?.actual, '0.83 ×');
  });

  it('misses the baseline ratio, a slow p99, any unexpected answer, a heavy page and a fat server', () => {
    const slow = run({
      baseline: measurement('baseline GET /api/doctors', { requestsPerSecond: 2000 }),
      endpoints: [measurement('GET /api/doctors', { p99Ms: 50, errors: 3 })],
      ui: [{ page: '/login', files: [], jsBytes: 0, jsGzipBytes: 100_001, cssBytes: 0, cssGzipBytes: 0 }],
      peakRssMiB: { medora: 301, baseline: 90 },
    });
    const missed = checkTargets(slow).filter((c) => !c.met).map((c) => c.target);
    assert.deepEqual(missed, [
      'GET /api/doctors ≥ 0.8 × baseline',
      'GET /api/doctors p99 < 50 ms',
      'GET /api/doctors no unexpected answers',
      'JS for /login ≤ 100 KB gzip',
      'server peak RSS ≤ 300 MiB',
    ]);
  });
});

describe('resultsJson', () => {
  it('writes the baseline ratio and each endpoint in snake_case', () => {
    const json = JSON.parse(resultsJson(run(), checkTargets(run())));
    assert.equal(json.baseline_ratio, 0.833);
    assert.equal(json.endpoints[1].p99_ms, 80);
    assert.equal(json.endpoints[0].requests_per_sec, 1000);
  });
});
