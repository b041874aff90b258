import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Result } from 'autocannon';
import { consuming, cycling, summarize, type Scenario } from './load.ts';

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
});

describe('request sources', () => {
  it('cycles through its items round and round', () => {
    const next = cycling(['a', 'b'], (path) => ({ path }));
    assert.deepEqual([next(), next(), next()].map((r) => r.path), ['a', 'b', 'a']);
  });

  it('hands each consumable item out once, then repeats only the last', () => {
    const next = consuming(['a', 'b'], (path) => ({ path }));
    assert.deepEqual([next(), next(), next()].map((r) => r.path), ['a', 'b', 'b']);
  });
});
