import { describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { testDatabases } from '../testing/test-db.ts';
import { PAGES_COUNTED_AHEAD, pageWithTotal } from './list-page.ts';

const numbersUpTo = (upTo: number) => ({
  columns: 'n',
  rowsOf: 'from generate_series(1, $1::int) n',
  orderBy: 'n',
  params: [upTo],
});

// Plain SQL, its count cast to int, its parameters numbers: alike on either engine and driver, so on one, the server
// when TEST_DATABASE_URL is set, since booting PGlite costs seconds of CPU time.
for (const target of testDatabases('one')) {
  describe(`a page and its total on ${target.name}`, () => {
    it('counts exactly up to ten pages past the page asked for, and reports a lower bound beyond', async () => {
      const { db, drop } = await target.open();
      try {
        const list = (upTo: number, page: number, perPage: number) =>
          pageWithTotal(db, { q: '', page, perPage }, numbersUpTo(upTo), (row: { n: number }) => row.n);

        assert.deepEqual(await list(50, 1, 5), {
          items: [1, 2, 3, 4, 5],
          total: 50,
          totalIsLowerBound: false,
          page: 1,
          perPage: 5,
        });
        assert.equal(PAGES_COUNTED_AHEAD, 10);
        assert.deepEqual(await list(51, 1, 5), {
          items: [1, 2, 3, 4, 5],
          total: 50,
          totalIsLowerBound: true,
          page: 1,
          perPage: 5,
        });
        // A later page counts further, so paging on always shows there is more.
        assert.deepEqual(
          { ...(await list(51, 3, 5)), items: [] },
          { items: [], total: 51, totalIsLowerBound: false, page: 3, perPage: 5 },
        );
        assert.deepEqual(await list(3, 2, 5), { items: [], total: 3, totalIsLowerBound: false, page: 2, perPage: 5 });
      } finally {
        await drop();
      }
    });
  });
}
