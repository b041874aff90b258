import assert from 'node:assert/strict';
import { describe, it } from '../testing/node-test.ts';
import { readsOnly } from './reads-only.ts';

describe('a statement that only reads', () => {
  it('is a select, or a with-clause that changes no table, whatever its case and leading space', () => {
    assert.equal(readsOnly('select id from doctors where id = $1 and active'), true);
    assert.equal(readsOnly('\n   SELECT count(*) from appointments'), true);
    assert.equal(
      readsOnly(
        'with page as (select id from users order by name limit 50) select * from page join doctors d using (id)',
      ),
      true,
    );
    assert.equal(
      readsOnly('select u.updated_at, u.deleted_by_admin from users u'),
      true,
      'words that only start like a write',
    );
  });

  it('is not a write, a with-clause that writes, or a select that locks rows', () => {
    assert.equal(readsOnly('update users set name = $2 where id = $1'), false);
    assert.equal(readsOnly('insert into sessions (user_id) values ($1)'), false);
    assert.equal(
      readsOnly(
        'with added as (insert into audit_log (action) values ($1) returning id) insert into outbox (id) select id from added',
      ),
      false,
    );
    assert.equal(readsOnly('with d as (delete from holds where id = $1 returning id) select count(*) from d'), false);
    assert.equal(readsOnly('select id from appointments where id = $1 for update'), false);
    assert.equal(readsOnly('select id from appointments where id = $1 FOR NO KEY UPDATE'), false);
    assert.equal(readsOnly('select id from rooms where id = $1 for share'), false);
    assert.equal(readsOnly('set lock_timeout = 200'), false);
  });
});
