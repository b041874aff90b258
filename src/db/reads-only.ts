/**
 * Whether a statement only reads: it starts with select (and locks no rows), or with a with-clause that changes no
 * table. Such a statement outside a transaction waits the reads' short time for a lock (postgres.ts). A function a
 * select calls may still write (the sealer's audit_seal, retention's prune): those take no lock anything else holds.
 */
const READS_ONLY = /^\s*(?:select\b|with\b(?![\s\S]*\b(?:insert|update|delete|merge)\b))/i;
const LOCKS_ROWS = /\bfor\s+(?:no\s+key\s+)?(?:update|share|key\s+share)\b/i;

// Statements are a fixed set of strings, so each is looked at once; ones with values written into them (DDL, a
// bench's inserts) are not worth remembering past a bound.
const known = new Map<string, boolean>();

export function readsOnly(sql: string): boolean {
  let reads = known.get(sql);
  if (reads === undefined) {
    reads = READS_ONLY.test(sql) && !LOCKS_ROWS.test(sql);
    if (known.size < 10_000) known.set(sql, reads);
  }
  return reads;
}
