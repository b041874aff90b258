import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { statementLimitMs } from './statement-limit.ts';

describe("a socket client's statement limit", () => {
  it("is the server's without a setting of its own", () => {
    assert.equal(statementLimitMs([], undefined, 5000), 5000);
    assert.equal(statementLimitMs([], '-c jit=off', 5000), 5000);
  });

  it('is the one its startup options name, in any unit', () => {
    assert.equal(statementLimitMs([], '-c jit=off -c statement_timeout=600000 -c lock_timeout=2000', 5000), 600_000);
    assert.equal(statementLimitMs([], '-cstatement_timeout=10min', 5000), 600_000);
    assert.equal(statementLimitMs([], '--statement_timeout=2.5s', 5000), 2500);
    assert.equal(statementLimitMs([], '-c statement_timeout=0', 5000), 0);
  });

  it('is the one its session set, over its startup options', () => {
    assert.equal(statementLimitMs([['statement_timeout', '7000']], '-c statement_timeout=600000', 5000), 7000);
  });

  it("falls back to the server's when the value is not a duration", () => {
    assert.equal(statementLimitMs([], '-c statement_timeout=soon', 5000), 5000);
  });
});
