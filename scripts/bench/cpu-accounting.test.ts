import { describe, it } from '../../src/testing/node-test.ts';
import assert from 'node:assert/strict';
import { backendsCpuUs, cpuRow, cpuUsOfStat, perAnswer, roundOrder, type CpuTurn } from './cpu-accounting.ts';

// A /proc/<pid>/stat line whose command name holds a space and a parenthesis; utime 250 and stime 50 ticks.
const stat = (utime: number, stime: number) =>
  `4242 (postgres: 15/main: postgres bench_x 127.0.0.1(51234) idle) S 2244 2244 2244 0 -1 4194560 1 0 0 0 ${utime} ${stime} 0 0 20 0 1 0 900 1 1`;

describe('CPU per answer', () => {
  it('reads utime and stime after the command name, in microseconds', () => {
    assert.equal(cpuUsOfStat(stat(250, 50)), 3_000_000);
    assert.throws(() => cpuUsOfStat('garbage'), /not a \/proc stat line/);
  });

  it('counts what each backend spent between two readings, a new one from nothing, and says how many ended', () => {
    const before = new Map([
      [1, 1000],
      [2, 5000],
      [3, 700],
    ]);
    const after = new Map([
      [1, 1600],
      [2, 5400],
      [4, 300],
    ]);
    assert.deepEqual(backendsCpuUs(before, after), { us: 600 + 400 + 300, backends: 3, lost: 1 });
  });

  it('shares the CPU of the process and of its backends out over the answers', () => {
    assert.deepEqual(perAnswer({ answers: 100, errors: 0, serverUs: 20_000, databaseUs: 30_000 }), {
      server: 200,
      database: 300,
      total: 500,
    });
    assert.ok(Number.isNaN(perAnswer({ answers: 0, errors: 0, serverUs: 1, databaseUs: 1 }).total));
  });

  it('reverses the order of the two servers every round', () => {
    assert.deepEqual([0, 1, 2, 3].map(roundOrder), [
      ['medora', 'twin'],
      ['twin', 'medora'],
      ['medora', 'twin'],
      ['twin', 'medora'],
    ]);
  });

  it('reports the median round, so one disturbed round moves nothing', () => {
    const t = (answers: number, serverUs: number, databaseUs: number): CpuTurn => ({
      answers,
      errors: 0,
      serverUs,
      databaseUs,
    });
    // Medora 100 + 100 µs an answer, its twin 80 + 100, in every round but the third, where a neighbour took the cores.
    const rounds = [1, 2, 3, 4, 5, 6, 7].map((r) => ({
      medora: r === 3 ? t(100, 90_000, 10_000) : t(1000, 100_000, 100_000),
      twin: t(1000, 80_000, 100_000),
    }));
    const row = cpuRow('GET /api/doctors', rounds);
    assert.equal(row.rounds, 7);
    assert.deepEqual(row.medora, { server: 100, database: 100, total: 200 });
    assert.deepEqual(row.twin, { server: 80, database: 100, total: 180 });
    assert.equal(row.ratio, 200 / 180);
    assert.equal(row.roundRatios[2], 1000 / 180);
    assert.equal(row.frameworkUs, 20);
    assert.deepEqual(row.answers, { medora: 6100, twin: 7000 });
  });
});
