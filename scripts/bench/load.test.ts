import { describe, it } from '../../src/testing/node-test.ts';
import assert from 'node:assert/strict';
import type { Result } from 'autocannon';
import { combine, consuming, cpuPerRequestUs, cycling, percentiles, summarize, type Scenario } from './load.ts';

const scenario: Scenario = { name: 'POST /x', method: 'POST', path: '/x', expectStatus: 201, next: () => ({}) };
const histogram = { average: 0, mean: 0, min: 1, max: 40, total: 0, p50: 3, p90: 9, p99: 20 };

describe('summarize', () => {
  it('counts every answer but the expected status, and connection errors, as errors', () => {
    const result: Result = {
      duration: 10,
      errors: 2,
      timeouts: 1,
      non2xx: 5,
      statusCodeStats: { '201': { count: 995 }, '409': { count: 5 } },
      latency: histogram,
      requests: { ...histogram, sent: 1003 },
    };
    const m = summarize(scenario, 32, result);
    assert.equal(m.requests, 1000);
    assert.equal(m.requestsPerSecond, 100);
    assert.equal(m.errors, 8);
    assert.deepEqual([m.p50Ms, m.p99Ms, m.maxMs], [3, 20, 40]);
  });

  it('takes percentiles from the latencies of every answer when it has them, to the hundredth of a millisecond', () => {
    const result: Result = {
      duration: 1,
      errors: 0,
      timeouts: 0,
      non2xx: 0,
      statusCodeStats: { '201': { count: 4 } },
      latency: histogram,
      requests: { ...histogram, sent: 4 },
    };
    const m = summarize(scenario, 4, result, undefined, [2.5, 1.25, 7.125, 3]);
    assert.deepEqual([m.p50Ms, m.p99Ms, m.maxMs], [2.5, 7.13, 7.13]);
  });
});

describe('combining turns', () => {
  it('adds requests and seconds up and takes percentiles over every answer of every turn', () => {
    const turn = (requests: number, latenciesMs: number[], codes: Record<string, number>) => ({
      ...scenario,
      connections: 2,
      seconds: 5,
      requests,
      requestsPerSecond: requests / 5,
      p50Ms: 0,
      p99Ms: 0,
      maxMs: 0,
      errors: 0,
      statusCodes: codes,
      latenciesMs,
    });
    const m = combine([turn(500, [1, 2, 3], { '201': 500 }), turn(1500, [4, 5, 6, 7], { '201': 1499, '500': 1 })]);
    assert.deepEqual([m.requests, m.seconds, m.requestsPerSecond], [2000, 10, 200]);
    assert.deepEqual(m.statusCodes, { '201': 1999, '500': 1 });
    assert.deepEqual([m.p50Ms, m.maxMs], [4, 7]);
    assert.equal(m.serverCpuUs, undefined, 'no CPU time unless every turn measured it');
    const cpu = combine([
      { ...turn(500, [1], {}), serverCpuUs: 100_000 },
      { ...turn(1500, [2], {}), serverCpuUs: 300_000 },
    ]);
    assert.equal(cpuPerRequestUs(cpu), 200);
  });

  it('finds nearest-rank percentiles', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
    assert.deepEqual(percentiles(hundred), { p50Ms: 50, p99Ms: 99, maxMs: 100 });
  });
});

describe('request sources', () => {
  it('cycles through its items round and round', () => {
    const next = cycling(['a', 'b'], (path) => ({ path }));
    assert.deepEqual(
      [next(), next(), next()].map((r) => r.path),
      ['a', 'b', 'a'],
    );
  });

  it('hands each consumable item out once, then repeats only the last', () => {
    const next = consuming(['a', 'b'], (path) => ({ path }));
    assert.deepEqual(
      [next(), next(), next()].map((r) => r.path),
      ['a', 'b', 'b'],
    );
  });
});
