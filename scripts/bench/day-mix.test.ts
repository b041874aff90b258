import assert from 'node:assert/strict';
import { describe, it } from '../../src/testing/node-test.ts';
import {
  arrivalTimesMs,
  DAY_ROLES,
  pickWeighted,
  ROLE_ACTIONS,
  ROLE_SHARES,
  roleCounts,
  rolesInArrivalOrder,
  seededRandom,
  thinkTimeMs,
} from './day-mix.ts';
import { nextAction } from './day-run.ts';

const draws = (random: () => number, n: number) => Array.from({ length: n }, random);

describe('the hospital day mix', () => {
  it('gives the issue its shares of users: 30 % patients, 25 % doctors, 20 % nurses, 15 % desk, 10 % FHIR', () => {
    assert.deepEqual(roleCounts(400), { patient: 120, doctor: 100, nurse: 80, desk: 60, fhir: 40 });
    assert.equal(DAY_ROLES.reduce((sum, role) => sum + ROLE_SHARES[role], 0).toFixed(10), (1).toFixed(10));
    // Rounded by largest remainder, the counts still add up to the users.
    for (const users of [1, 7, 33, 101, 999]) {
      const counts = roleCounts(users);
      assert.equal(
        DAY_ROLES.reduce((sum, role) => sum + counts[role], 0),
        users,
        `${users} users`,
      );
    }
    assert.deepEqual(roleCounts(7), { patient: 2, doctor: 2, nurse: 1, desk: 1, fhir: 1 });
  });

  it('shuffles the roles into an arrival order that keeps each count', () => {
    const counts = roleCounts(100);
    const order = rolesInArrivalOrder(seededRandom(3), counts);
    for (const role of DAY_ROLES) assert.equal(order.filter((r) => r === role).length, counts[role]);
    assert.notDeepEqual(order.slice(0, 30), Array(30).fill('patient'));
  });

  it('repeats the same draws from the same seed, and different ones from another', () => {
    assert.deepEqual(draws(seededRandom(42), 5), draws(seededRandom(42), 5));
    assert.notDeepEqual(draws(seededRandom(42), 5), draws(seededRandom(43), 5));
    for (const value of draws(seededRandom(7), 10_000)) assert.ok(value >= 0 && value < 1);
  });

  it('picks each action about as often as its weight says, and never one of weight 0', () => {
    const random = seededRandom(11);
    const seen = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 30_000; i++) seen[pickWeighted(random, { a: 1, b: 2, c: 0 })]++;
    assert.equal(seen.c, 0);
    assert.ok(Math.abs(seen.b / seen.a - 2) < 0.1, `b/a = ${seen.b / seen.a}`);
    assert.throws(() => pickWeighted(random, { a: 0 }), /positive weight/);
    // The edge of the range picks the last key with weight.
    assert.equal(
      pickWeighted(() => 0.999_999_999_9, { a: 1, b: 1, c: 0 }),
      'b',
    );
  });

  it("takes a role's actions only from that role", () => {
    const random = seededRandom(5);
    for (const role of DAY_ROLES)
      for (let i = 0; i < 200; i++) assert.ok(nextAction(random, role) in ROLE_ACTIONS[role], role);
  });

  it('draws think times from an exponential of the given mean, cut at six means', () => {
    const random = seededRandom(9);
    const times = draws(() => thinkTimeMs(random, 12_000), 50_000);
    const mean = times.reduce((sum, t) => sum + t, 0) / times.length;
    // The exponential cut at 6 means has mean (1 - e^-6) × 12 s = 11.97 s.
    assert.ok(Math.abs(mean - 11_970) < 250, `mean ${mean}`);
    assert.ok(Math.max(...times) <= 72_000);
    const median = [...times].sort((a, b) => a - b)[times.length / 2] as number;
    assert.ok(Math.abs(median - 12_000 * Math.LN2) < 250, `median ${median}`);
    assert.equal(
      thinkTimeMs(() => 0, 12_000),
      0,
    );
  });

  it('spreads the arrivals over the ramp, in order', () => {
    const arrivals = arrivalTimesMs(seededRandom(1), 400, 60_000);
    assert.equal(arrivals.length, 400);
    assert.deepEqual(
      arrivals,
      [...arrivals].sort((a, b) => a - b),
    );
    assert.ok(arrivals.every((t) => t >= 0 && t < 60_000));
    assert.ok(arrivals.filter((t) => t < 30_000).length > 150 && arrivals.filter((t) => t < 30_000).length < 250);
  });
});
