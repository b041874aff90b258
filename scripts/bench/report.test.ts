import { describe, it } from '../../src/testing/node-test.ts';
import assert from 'node:assert/strict';
import type { Measurement } from './load.ts';
import {
  checkTargets,
  growthRows,
  median,
  quantile,
  renderReport,
  resultsJson,
  type BenchRun,
  type ReadPair,
} from './report.ts';
import type { RoundTrips } from './statements.ts';
import { at, first } from '../../src/testing/assert.ts';

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
  latenciesMs: [],
  ...over,
});

const pair = (name: string, medora: Partial<Measurement> = {}, twin: Partial<Measurement> = {}): ReadPair => {
  const m = measurement(name, medora);
  const t = measurement(name, { requestsPerSecond: 1050, p50Ms: 9, ...twin });
  const ratio = m.requestsPerSecond / t.requestsPerSecond;
  return {
    name,
    medora: m,
    twin: t,
    roundRatios: [ratio * 1.1, ratio, ratio * 0.5],
    roundP50Ms: { medora: [m.p50Ms, m.p50Ms * 0.9, m.p50Ms * 3], twin: [t.p50Ms, t.p50Ms, t.p50Ms] },
  };
};

const statements = [
  'begin',
  'select id from doctors where id = $1 and active for no key update',
  'insert into audit_log',
  'commit',
];
const trips = (name: string, twinStatements = statements): RoundTrips => ({
  name,
  medora: { transactions: 1, inTransaction: statements, outside: ['select session'] },
  twin: { transactions: 1, inTransaction: twinStatements, outside: ['select session'] },
});

const run = (over: Partial<BenchRun> = {}): BenchRun => ({
  startedAt: '2025-01-01T00:00:00.000Z',
  database: 'postgres',
  machine: { cpus: 2, node: '20', platform: 'linux-x64' },
  clinicTimeZone: 'Etc/GMT',
  load: { connections: 32, seconds: 5, rounds: 4, together: true },
  scales: [
    {
      scale: 0.01,
      dataset: { counts: { appointments: 10_000 }, seconds: 2 },
      reads: [pair('GET /api/doctors', { p50Ms: 8 }), pair('GET /api/admin/statistics', { p50Ms: 5 })],
    },
    {
      scale: 0.1,
      dataset: { counts: { appointments: 100_000 }, seconds: 9 },
      reads: [pair('GET /api/doctors', { p50Ms: 9 }), pair('GET /api/admin/statistics', { p50Ms: 5 })],
    },
    {
      scale: 1,
      dataset: { counts: { appointments: 1_000_000 }, seconds: 90 },
      reads: [pair('GET /api/doctors', { serverCpuUs: 5_000_000 }), pair('GET /api/admin/statistics', { p50Ms: 6 })],
    },
  ],
  writePairs: [pair('POST /api/appointments/book', { method: 'POST', statusCodes: { '201': 10_000 } })],
  roundTrips: [trips('POST /api/appointments/book')],
  writes: [measurement('POST /api/login', { p99Ms: 80 })],
  loginBurst: { login: measurement('POST /api/login'), read: measurement('GET /api/doctors') },
  peakRssMiB: { medora: 180, twins: 90 },
  ui: [{ page: '/', files: [], jsBytes: 250_000, jsGzipBytes: 82_000, cssBytes: 0, cssGzipBytes: 0 }],
  ...over,
});

describe('checkTargets', () => {
  it('meets every target of a run within them', () => {
    const checks = checkTargets(run());
    assert.ok(
      checks.every((c) => c.met),
      JSON.stringify(checks.filter((c) => !c.met)),
    );
    assert.equal(checks.find((c) => c.target.startsWith('GET /api/doctors: Medora'))?.actual, '0.95 ×');
    assert.equal(checks.find((c) => c.target.startsWith('GET /api/doctors: p50'))?.actual, '1.25 ×');
  });

  it('misses a slow endpoint against its twin, a steep growth, any unexpected answer, a heavy page and a fat server', () => {
    const slow = run();
    slow.scales[2] = {
      ...at(slow.scales, 2),
      reads: [
        pair('GET /api/doctors', { requestsPerSecond: 800, p50Ms: 13 }),
        pair('GET /api/admin/statistics', { p50Ms: 6 }, { errors: 2 }),
      ],
    };
    slow.ui = [{ page: '/login', files: [], jsBytes: 0, jsGzipBytes: 100_001, cssBytes: 0, cssGzipBytes: 0 }];
    slow.peakRssMiB = { medora: 301, twins: 90 };
    slow.writePairs = [pair('POST /api/appointments/book', { requestsPerSecond: 300 }, { requestsPerSecond: 400 })];
    slow.roundTrips = [trips('POST /api/appointments/book', [...statements.slice(0, 2), 'commit'])];
    const missed = checkTargets(slow).filter((c) => !c.met);
    assert.deepEqual(
      missed.map((c) => c.target),
      [
        'GET /api/doctors: Medora ≥ 0.95 × its twin at 100 %',
        'POST /api/appointments/book: Medora ≥ 0.9 × its twin at 100 %',
        "POST /api/appointments/book: the twin sends Medora's statements",
        'GET /api/doctors: p50 at 100 % ≤ 1.5 × p50 at 1 %',
        'no unexpected answers, on Medora or a twin',
        'JS for /login ≤ 100 KB gzip',
        'server peak RSS ≤ 300 MiB',
      ],
    );
    assert.equal(at(missed, 2).actual, '4 + 1 on Medora, 3 + 1 on the twin');
    assert.equal(at(missed, 4).actual, 'twin GET /api/admin/statistics at 100 %: 2');
  });

  it('checks no growth when the run has one scale only, and reports no p99 as a target', () => {
    const one = run();
    one.scales = [at(one.scales, 2)];
    const checks = checkTargets(one);
    assert.ok(!checks.some((c) => c.target.includes('p50 at') || c.target.includes('p99')));
    assert.equal(first(growthRows(one)).growth, undefined);
  });
});

describe('the tables', () => {
  it('gives each read its p50 at every scale and how much it grew, for Medora and its twin', () => {
    const doctors = first(growthRows(run()));
    assert.deepEqual(doctors.p50Ms, [8, 9, 10]);
    assert.equal(doctors.growth, 1.25);
    assert.equal(doctors.twinGrowth, 1);
  });

  it("takes the growth from the rounds, the median of the largest scale's p50 over the smallest's in each", () => {
    const grown = run();
    first(at(grown.scales, 0).reads).roundP50Ms.medora = [10, 10, 10];
    first(at(grown.scales, 2).reads).roundP50Ms.medora = [12, 40, 13];
    assert.equal(first(growthRows(grown)).growth, 1.3);
  });

  it('measures no growth, and so misses its target, when a round at some scale answered nothing', () => {
    const silent = run();
    first(at(silent.scales, 2).reads).roundP50Ms.medora = [0, 0, 0];
    assert.equal(first(growthRows(silent)).growth, undefined);
    const check = checkTargets(silent).find((c) => c.target.startsWith('GET /api/doctors: p50 at'));
    assert.deepEqual([check?.actual, check?.met], ['not measured', false]);
  });

  it('writes the ratio table, the growth table and each measurement in snake_case', () => {
    const json = JSON.parse(resultsJson(run(), checkTargets(run())));
    assert.equal(json.ratio_table.scale, 1);
    assert.deepEqual(json.ratio_table.rows[0], {
      endpoint: 'GET /api/doctors',
      medora_req_per_sec: 1000,
      twin_req_per_sec: 1050,
      ratio: 0.952,
      ratio_middle_half: [0.71, 1],
      p50_ms: 10,
      p99_ms: 30,
      twin_p50_ms: 9,
      twin_p99_ms: 30,
      cpu_us_per_req: 500,
      twin_cpu_us_per_req: null,
    });
    assert.deepEqual(json.growth_table.rows[1], {
      endpoint: 'GET /api/admin/statistics',
      p50_ms: [5, 5, 6],
      growth: 1.2,
      twin_p50_ms: [9, 9, 9],
      twin_growth: 1,
    });
    assert.equal(json.reads[0].endpoints[0].twin.requests_per_sec, 1050);
    assert.equal(json.write_ratio_table.rows[0].endpoint, 'POST /api/appointments/book');
    assert.equal(json.write_pairs[0].twin.requests_per_sec, 1050);
    assert.deepEqual(json.round_trips[0], {
      endpoint: 'POST /api/appointments/book',
      same_statements: true,
      medora: {
        transactions: 1,
        in_transaction: 4,
        outside: 1,
        statements: ['outside: select session', ...statements],
      },
      twin: { transactions: 1, in_transaction: 4, outside: 1, statements: ['outside: select session', ...statements] },
    });
    assert.equal(json.writes[0].p99_ms, 80);
    assert.ok(!('latencies_ms' in json.writes[0]) && !('latenciesMs' in json.writes[0]));
  });

  it("takes the median of the rounds' ratios, so one disturbed round does not move it", () => {
    assert.equal(median([0.9, 0.2, 0.95]), 0.9);
    assert.equal(median([1, 0.5, 0.9, 0.95]), 0.925);
    assert.equal(quantile([4, 1, 3, 2, 5], 0.25), 2);
    assert.equal(quantile([1, 2], 0.75), 1.75);
  });

  it('renders both tables as plain text', () => {
    const text = renderReport(run(), checkTargets(run()));
    assert.match(text, /p50 at 1 %.*p50 at 10 %.*p50 at 100 %.*growth/);
    assert.match(text, /GET \/api\/doctors\s*│\s*1000\s*│\s*1050\s*│\s*0\.95 ×/);
    assert.match(text, /Writes at 100 %[\s\S]*POST \/api\/appointments\/book\s*│\s*1000\s*│\s*1050\s*│\s*0\.95 ×/);
    assert.match(text, /POST \/api\/appointments\/book\s*│\s*1\s*│\s*4\s*│\s*1\s*│\s*4\s*│\s*1\s*│\s*yes/);
  });
});
