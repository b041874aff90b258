import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { join } from 'node:path';
import { createPglite } from './embedded/pglite.ts';
import { type DataDirCopy, embeddedDataDirBefore } from '../testing/test-db.ts';
import { readMigrations } from './migrate.ts';

const LINK_MIGRATION = 17;
const PLAIN = 'a-plaintext-cancel-token-from-before';
const digest = (token: string) => createHash('sha256').update(token).digest('hex');

describe('migration 0017: link tokens minted at send', () => {
  let copy: DataDirCopy | undefined;
  let db: PGlite;

  before(async () => {
    copy = await embeddedDataDirBefore(LINK_MIGRATION);
    db = await createPglite(join(copy.dataDir, 'pglite'));
    // A reminder queued before the release, its token in plain text in the outbox, its digest in action_tokens.
    await db.query(
      `insert into action_tokens (token_hash, kind, expires_at) values ($1, 'cancel_appointment', now() + interval '30 days')`,
      [digest(PLAIN)],
    );
    await db.query(
      `insert into outbox (kind, dedupe_key, recipient, subject, text_body, html_body, link_token, send_after)
       values ('reminder', 'reminder:old', 'mia@example.test', 'Reminder', 'Cancel: {{link}}', '{{link}}', $1, now() + interval '20 days')`,
      [PLAIN],
    );
    for (const m of readMigrations().filter((m) => m.version === LINK_MIGRATION)) await db.exec(m.sql);
  });
  after(async () => {
    await db?.close();
    await copy?.remove();
  });

  it('carries a pending message over to its link, voids its plaintext token and drops the column', async () => {
    const columns = await db.query(
      `select 1 from information_schema.columns where table_name = 'outbox' and column_name = 'link_token'`,
    );
    assert.equal(columns.rows.length, 0, 'the column is gone');
    const linked = await db.query<{ link_id: number; token_hash: string | null }>(
      `select o.link_id, t.token_hash from outbox o join action_tokens t on t.id = o.link_id where o.dedupe_key = 'reminder:old'`,
    );
    assert.equal(linked.rows.length, 1, 'the message keeps what its link is for: the sender mints it a new token');
    assert.equal(linked.rows[0]?.token_hash, null, "the old token's digest no longer matches anything");
    const dump = await db.query<{ v: string }>(`select string_agg(t::text, ' ') as v from (select * from outbox) t`);
    assert.ok(!(dump.rows[0]?.v ?? '').includes(PLAIN), 'no plaintext token is left');
  });
});
