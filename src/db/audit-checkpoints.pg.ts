import type { ChainLink, ChainLinks, Checkpoint, CheckpointStore } from '../domain/audit/checkpoint.ts';
import type { Queryable } from './db.ts';

/** Only "the row with seq S has hash H", read from the chain's batches of links (migration 0032): not from the head. */
export function chainLinks(db: Queryable): ChainLinks {
  return {
    newest: async () => {
      const [link] = await db.query<ChainLink>(
        `select first_seq + cardinality(audit_ids) - 1 as seq, encode(substring(hashes from octet_length(hashes) - 31), 'hex') as hash
         from audit_chain_batches order by first_seq desc limit 1`,
      );
      return link ?? null;
    },
    hashesAt: async (seqs) => {
      const rows = await db.query<ChainLink>(
        `select s.seq, encode(substring(b.hashes from (s.seq - b.first_seq)::int * 32 + 1 for 32), 'hex') as hash
         from unnest($1::bigint[]) s(seq)
         cross join lateral (select first_seq, audit_ids, hashes from audit_chain_batches where first_seq <= s.seq order by first_seq desc limit 1) b
         where s.seq < b.first_seq + cardinality(b.audit_ids)`,
        [seqs],
      );
      return new Map(rows.map((row) => [row.seq, row.hash]));
    },
  };
}

interface CheckpointRow {
  seq: number;
  hash: string;
  at: Date;
  key_id: string;
  signature: string;
}

export const toCheckpoint = (row: CheckpointRow): Checkpoint => ({
  seq: row.seq,
  hash: row.hash,
  at: row.at,
  keyId: row.key_id,
  signature: row.signature,
});

// encode(…, 'base64') breaks lines every 76 characters; a signature is 88.
const COLUMNS = `seq, encode(hash, 'hex') as hash, at, key_id, translate(encode(signature, 'base64'), E'\\n', '') as signature`;
// Any constant works; it only has to be the same for every Medora instance sharing a database.
const SIGNING_LOCK_KEY = 727_015;

export function checkpointStore(db: Queryable): CheckpointStore {
  return {
    lock: async () => {
      await db.query('select pg_advisory_xact_lock($1)', [SIGNING_LOCK_KEY]);
    },
    latest: async () => {
      const [row] = await db.query<CheckpointRow>(`select ${COLUMNS} from audit_checkpoints order by id desc limit 1`);
      return row ? toCheckpoint(row) : null;
    },
    // Hourly, a year is under 9,000 rows: read whole, in the order they were stored.
    all: async () =>
      (await db.query<CheckpointRow>(`select ${COLUMNS} from audit_checkpoints order by id`)).map(toCheckpoint),
    add: async (checkpoint) => {
      await db.query(
        `insert into audit_checkpoints (seq, hash, at, key_id, signature) values ($1, decode($2, 'hex'), $3, $4, decode($5, 'base64'))`,
        [checkpoint.seq, checkpoint.hash, checkpoint.at, checkpoint.keyId, checkpoint.signature],
      );
    },
  };
}
