import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { fixedClock } from '../shared/clock.ts';
import { DomainError } from '../shared/errors.ts';
import { billingReport, type BillingFigures, type BillingReportDeps } from './billing-report.ts';
import { present } from '../../testing/assert.ts';

const figures = (bills: number): BillingFigures => ({
  bills,
  billed_cents: bills * 100,
  paid_cents: 0,
  unpaid_cents: bills * 100,
  unpaid_0_30_cents: bills * 100,
  unpaid_31_60_cents: 0,
  unpaid_61_90_cents: 0,
  unpaid_over_90_cents: 0,
});

function deps(asked: unknown[] = []): BillingReportDeps {
  return {
    // 23:30 UTC on 31 March is already 1 April in Berlin.
    clock: fixedClock('2026-03-31T23:30:00Z'),
    timeZone: 'Europe/Berlin',
    billing: {
      billingFigures: async (period, by) => {
        asked.push({ period, by });
        return {
          groups: [
            { label: 'Cardiology', ...figures(2) },
            { label: null, ...figures(1) },
          ],
          total: figures(3),
        };
      },
    },
  };
}

describe('billingReport', () => {
  it("covers the clinic's month so far by default and ages unpaid bills from the clinic's today", async () => {
    const asked: unknown[] = [];
    const report = await billingReport(deps(asked), {});
    assert.deepEqual(asked, [{ period: { from: '2026-04-01', to: '2026-04-01', asOf: '2026-04-01' }, by: undefined }]);
    assert.deepEqual(report.rows, [figures(3)]);
    assert.equal(report.by, null);
  });

  it('keys each group row by the grouping', async () => {
    const report = await billingReport(deps(), { from: '2026-01-01', to: '2026-03-31', by: 'department' });
    assert.deepEqual(report.rows, [
      { department: 'Cardiology', ...figures(2) },
      { department: null, ...figures(1) },
    ]);
    assert.deepEqual(report.total, figures(3));
  });

  it('names every bad field', async () => {
    await assert.rejects(billingReport(deps(), { from: '2026-02-30', by: 'week' }), (error) => {
      assert.ok(error instanceof DomainError);
      assert.deepEqual(Object.keys(present(error.fields)), ['from', 'by']);
      return true;
    });
    await assert.rejects(
      billingReport(deps(), { from: '2026-03-02', to: '2026-03-01' }),
      /to: must not be before from/,
    );
  });
});
