import { describe, it } from '../../src/testing/node-test.ts';
import assert from 'node:assert/strict';
import type { Measurement } from './load.ts';
import { clinicalMisses, clinicalRead, clinicalTables, clinicalWrite, mergeClinical } from './clinical-report.ts';

const turn = (latenciesMs: number[], over: Partial<Measurement> = {}): Measurement => ({
  name: 'GET /api/bed-board',
  method: 'GET',
  path: '/api/bed-board',
  connections: 16,
  seconds: 1,
  requests: latenciesMs.length,
  requestsPerSecond: latenciesMs.length,
  p50Ms: [...latenciesMs].sort((a, b) => a - b)[Math.ceil(latenciesMs.length / 2) - 1] ?? 0,
  p99Ms: Math.max(...latenciesMs),
  maxMs: Math.max(...latenciesMs),
  errors: 0,
  statusCodes: { '200': latenciesMs.length },
  latenciesMs,
  serverCpuUs: latenciesMs.length * 1000,
  ...over,
});
const hundred = (from: number) => Array.from({ length: 100 }, (_, i) => from + i);
const fill = { items: 30, bytes: 12_000 };

describe('the clinical reads report', () => {
  it('gives p50 and p95 over every round and the median of the rounds’ growth, for Medora and its twin', () => {
    const read = clinicalRead('GET /api/bed-board', [
      { scale: 0.01, fill, medora: [turn(hundred(1)), turn(hundred(1))], twin: [turn(hundred(1)), turn(hundred(1))] },
      {
        scale: 1,
        fill,
        medora: [turn(hundred(1).map((ms) => ms * 1.2)), turn(hundred(1).map((ms) => ms * 1.4))],
        twin: [turn(hundred(1)), turn(hundred(1))],
      },
    ]);
    const [small, full] = read.at;
    assert.equal(small?.medora.p50_ms, 50);
    assert.equal(small?.medora.p95_ms, 95.05);
    assert.equal(small?.medora.cpu_us_per_answer, 1000);
    assert.equal(full?.medora.p50_ms, 64.8);
    // Rounds grew 1.2 and 1.4 ×: their median.
    assert.deepEqual(read.growth, { p50: 1.3, p95: 1.3, twin_p50: 1, twin_p95: 1 });
    assert.equal(read.equal_fill, true);
    assert.deepEqual(clinicalMisses([read], []), []);
  });

  it('says when the answers were not as full at both scales (over 10 % apart), and names a growth over 1.5 ×', () => {
    const read = clinicalRead('GET /api/doctor/results-to-review', [
      { scale: 0.01, fill: { items: 20, bytes: 1 }, medora: [turn(hundred(1))], twin: [turn(hundred(1))] },
      { scale: 1, fill: { items: 23, bytes: 1 }, medora: [turn(hundred(2))], twin: [turn(hundred(1))] },
    ]);
    assert.equal(read.equal_fill, false);
    assert.equal(read.growth.p50, 1.02);
    const slow = clinicalRead('x', [
      { scale: 0.01, fill, medora: [turn(hundred(1))], twin: [turn(hundred(1))] },
      { scale: 1, fill, medora: [turn(hundred(1).map((ms) => ms * 2))], twin: [turn(hundred(1))] },
    ]);
    assert.deepEqual(clinicalMisses([slow], []), ['x: p50 growth 2.00 × > 1.5 ×']);
  });

  it('compares a write with its twin by the median of the rounds’ ratios, and names one under 0.9 ×', () => {
    const write = clinicalWrite(
      'POST /api/vitals/sets',
      [turn(hundred(1), { requestsPerSecond: 80 }), turn(hundred(1), { requestsPerSecond: 90 })],
      [turn(hundred(1), { requestsPerSecond: 100 }), turn(hundred(1), { requestsPerSecond: 100 })],
    );
    assert.equal(write.ratio, 0.85);
    assert.deepEqual(clinicalMisses([], [write]), ['POST /api/vitals/sets: 0.85 × its twin < 0.9']);
    const lines = clinicalTables([], [write]);
    assert.ok(lines.some((line) => line.startsWith('| POST /api/vitals/sets | 0.85 |')));
  });

  it('sets the clinical_reads section of results.json and keeps every other section', () => {
    const merged = JSON.parse(mergeClinical('{"reads":[1],"clinical_reads":{"old":true}}', { reads: [] }));
    assert.deepEqual(merged, { reads: [1], clinical_reads: { reads: [] } });
    assert.deepEqual(JSON.parse(mergeClinical(undefined, { a: 1 })), { clinical_reads: { a: 1 } });
  });
});
