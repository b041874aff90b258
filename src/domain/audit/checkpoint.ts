/**
 * A signed checkpoint of the audit chain: "the row with seq `seq` has hash `hash`", as of `at`, signed with a key kept
 * outside the database. It relies on nothing else about how rows are sealed into the chain, so it holds however
 * that sealing changes.
 */
export interface Checkpoint {
  seq: number;
  /** The row's hash, lowercase hex. */
  hash: string;
  at: Date;
  /** Which key signed it: a digest of its public key (`keyId` of the signing adapter). */
  keyId: string;
  /** Ed25519 over `checkpointText`, base64. */
  signature: string;
}

/** One link of the chain: the row with `seq` has `hash` (lowercase hex). */
export interface ChainLink {
  seq: number;
  hash: string;
}

/** A public key checkpoints are checked with. */
export interface CheckpointKey {
  keyId: string;
  verifies(text: string, signature: string): boolean;
}

/** The private key that signs checkpoints, and its public half. */
export interface CheckpointSigner extends CheckpointKey {
  sign(text: string): string;
}

/** The keys at hand: one that signs (AUDIT_SIGNING_KEY_FILE), and those a checkpoint is trusted under. */
export interface AuditKeys {
  signer: CheckpointSigner | null;
  trusted: CheckpointKey[];
}

export const NO_AUDIT_KEYS: AuditKeys = { signer: null, trusted: [] };

/** The chain as checkpoints read it. */
export interface ChainLinks {
  /** The chained row with the highest seq; null while the chain is empty. */
  newest(): Promise<ChainLink | null>;
  /** The hash of each of these seqs that a row holds. */
  hashesAt(seqs: number[]): Promise<Map<number, string>>;
}

export interface CheckpointStore {
  /** Holds other signers off until the transaction ends, so instances signing at once do not sign one head twice. */
  lock(): Promise<void>;
  /** The checkpoint stored last. */
  latest(): Promise<Checkpoint | null>;
  all(): Promise<Checkpoint[]>;
  add(checkpoint: Checkpoint): Promise<void>;
}

/** Checkpoint lines kept outside the database, e.g. grepped from the server's log; `number` counts from 1. */
export interface CheckpointFile {
  source: string;
  lines: { number: number; text: string }[];
}

// The version prefix lets a later format be told apart from this one, never read as it.
const TEXT_VERSION = 'medora-audit-checkpoint:v1';

/** The exact text that is signed. */
export function checkpointText(checkpoint: { seq: number; hash: string; at: Date }): string {
  return `${TEXT_VERSION}\n${checkpoint.seq}\n${checkpoint.hash}\n${checkpoint.at.toISOString()}`;
}

/** What marks a checkpoint in a log; a line with it that does not parse is reported, never skipped. */
export const CHECKPOINT_MARKER = 'audit checkpoint:';

/** A checkpoint as one log line, which `parseCheckpointLine` reads back. */
export function checkpointLine(checkpoint: Checkpoint): string {
  const { seq, hash, at, keyId, signature } = checkpoint;
  return `${CHECKPOINT_MARKER} seq=${seq} hash=${hash} at=${at.toISOString()} key=${keyId} signature=${signature}`;
}

const LINE =
  /audit checkpoint: seq=([1-9]\d{0,15}) hash=([0-9a-f]{64}) at=(\S+) key=([0-9a-f]{16}) signature=([A-Za-z0-9+/]{86}==)(?:\s|$)/;

/** The checkpoint in a log line (anything may come before it, such as a timestamp), or null when it holds none. */
export function parseCheckpointLine(text: string): Checkpoint | null {
  const found = LINE.exec(text);
  if (!found) return null;
  const [, seq = '', hash = '', at = '', keyId = '', signature = ''] = found;
  const time = new Date(at);
  // Only the form checkpointText signs: any other spelling of the time would verify as a different text.
  if (Number.isNaN(time.getTime()) || time.toISOString() !== at || !Number.isSafeInteger(Number(seq))) return null;
  return { seq: Number(seq), hash, at: time, keyId, signature };
}
