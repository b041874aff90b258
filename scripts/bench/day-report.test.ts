import assert from 'node:assert/strict';
import { describe, it } from '../../src/testing/node-test.ts';
import {
  actionTable,
  cpuPerAction,
  describeStatuses,
  missedTargets,
  percentile,
  snakeCaseKeys,
  summarise,
  type Sample,
} from './day-report.ts';

const sample = (action: string, ms: number, status = 200, expected = false): Sample => ({
  action,
  ms,
  status,
  expected,
});

describe('the hospital day report', () => {
  it('takes nearest-rank percentiles', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    assert.deepEqual(
      [50, 95, 99, 100].map((p) => percentile(hundred, p)),
      [50, 95, 99, 100],
    );
    assert.equal(percentile([7], 99), 7);
    assert.equal(percentile([], 50), 0);
    assert.equal(percentile([1, 2, 3], 0), 1);
  });

  it('sums up each action: latencies, errors apart from expected refusals, in the order asked', () => {
    const samples = [
      ...Array.from({ length: 100 }, (_, i) => sample('book', i + 1)),
      sample('book', 500, 409, true),
      sample('book', 900, 500),
      sample('read', 10),
      sample('read', 20, 0),
      sample('read', 30, 302),
    ];
    const [read, book] = summarise(samples, ['read', 'book']);
    assert.equal(read?.action, 'read');
    assert.deepEqual([read?.count, read?.errors, read?.errorStatuses, read?.expected], [3, 1, { 0: 1 }, {}]);
    assert.equal(book?.count, 102);
    assert.deepEqual([book?.errors, book?.errorStatuses, book?.expected], [1, { 500: 1 }, { 409: 1 }]);
    assert.deepEqual([book?.p50Ms, book?.p99Ms, book?.maxMs], [51, 500, 900]);
  });

  it('names what misses a target, and nothing when all are met', () => {
    const fine = summarise([sample('read', 100), sample('read', 200)]);
    assert.deepEqual(missedTargets(fine, [250, 260]), []);
    const slow = summarise([sample('slow', 400), sample('slow', 1200, 503)]);
    assert.deepEqual(missedTargets(slow, [250, 310]), [
      'slow: p95 1200 ms > 300 ms',
      'slow: p99 1200 ms > 1000 ms',
      'slow: 1 errors (503 × 1)',
      'instance 2: peak RSS 310 MiB > 300 MiB',
    ]);
  });

  it('divides CPU by the count, and leaves it unknown when nothing ran', () => {
    assert.equal(cpuPerAction(1_000_000, 300), 3333);
    assert.equal(cpuPerAction(1_000_000, 0), undefined);
  });

  it('prints the table the README shows', () => {
    const [figures] = summarise([sample('book', 10), sample('book', 30, 409, true), sample('book', 20, 0)]);
    assert.ok(figures);
    figures.cpuUsPerAction = 4200;
    assert.equal(describeStatuses({ 409: 2, 0: 1 }), 'no answer × 1, 409 × 2');
    assert.equal(describeStatuses({}), '—');
    assert.equal(
      actionTable([figures]).split('\n')[2],
      '| book | 3 | 20 | 30 | 30 | 1 (no answer × 1) | 409 × 1 | 4200 |',
    );
  });

  it('writes keys in snake_case, leaving values and status keys alone', () => {
    assert.deepEqual(
      snakeCaseKeys({
        p95Ms: 1,
        peakRssMiB: 4,
        actions: [{ cpuUsPerAction: 2, expected: { 409: 3 }, action: 'doctor: patient' }],
      }),
      {
        p95_ms: 1,
        peak_rss_mib: 4,
        actions: [{ cpu_us_per_action: 2, expected: { 409: 3 }, action: 'doctor: patient' }],
      },
    );
  });
});
