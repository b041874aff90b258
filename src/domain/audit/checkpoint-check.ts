import {
  CHECKPOINT_MARKER,
  checkpointText,
  parseCheckpointLine,
  type Checkpoint,
  type CheckpointFile,
  type CheckpointKey,
} from './checkpoint.ts';

/** What `verifyCheckpoints` found. */
export interface CheckpointReport {
  /** Distinct checkpoints read, from the database and the files (one in both counts once). */
  checked: number;
  inDatabase: number;
  inFiles: { source: string; checkpoints: number }[];
  /** False when no key was at hand: the checkpoints were compared with the chain, but anyone could have written them. */
  signaturesChecked: boolean;
  /** The newest checkpoint that holds (highest seq), and how many chained rows came after it. */
  newest: { seq: number; at: Date; rowsAfter: number } | null;
  /** One sentence per checkpoint or line that does not hold; none when all do. */
  problems: string[];
}

/** The checkpoints in a file's lines; other lines are skipped, and one that mentions a checkpoint without being one is a problem. */
export function readCheckpointFile(file: CheckpointFile): { checkpoints: Checkpoint[]; problems: string[] } {
  const checkpoints: Checkpoint[] = [];
  const problems: string[] = [];
  for (const line of file.lines.filter((candidate) => candidate.text.includes(CHECKPOINT_MARKER))) {
    const checkpoint = parseCheckpointLine(line.text);
    if (checkpoint) checkpoints.push(checkpoint);
    else problems.push(`line ${line.number} of ${file.source} mentions an audit checkpoint but is not one`);
  }
  return { checkpoints, problems };
}

const identity = (c: Checkpoint) => `${c.seq} ${c.hash} ${c.at.toISOString()} ${c.keyId} ${c.signature}`;

export interface CheckpointEvidence {
  stored: Checkpoint[];
  files: { source: string; checkpoints: Checkpoint[]; problems: string[] }[];
  /** Empty: signatures are not checked. */
  keys: CheckpointKey[];
  /** The chain's hash at each seq a checkpoint names (missing when no row has that seq). */
  hashes: Map<number, string>;
  /** The chain's highest seq, read after the stored checkpoints (so none of them can be ahead of it legitimately). */
  lastSeq: number;
}

/**
 * Each checkpoint, once, against the chain: signed by a trusted key, its row still there with the hash it signed,
 * and, when it came from a file, still in the database. Deleting the newest rows and stepping the chain's head back,
 * or rewriting a row and every hash after it, leaves the chain consistent but breaks a checkpoint that covered them.
 */
export function judgeCheckpoints(evidence: CheckpointEvidence): CheckpointReport {
  const { keys, hashes, lastSeq } = evidence;
  const storedIds = new Set(evidence.stored.map(identity));
  const sources = new Map<string, { checkpoint: Checkpoint; where: string[] }>();
  const note = (checkpoint: Checkpoint, where: string) => {
    const seen = sources.get(identity(checkpoint));
    if (!seen) sources.set(identity(checkpoint), { checkpoint, where: [where] });
    else if (!seen.where.includes(where)) seen.where.push(where);
  };
  for (const checkpoint of evidence.stored) note(checkpoint, 'the database');
  for (const file of evidence.files) for (const checkpoint of file.checkpoints) note(checkpoint, file.source);

  const problems: { seq: number; at: number; text: string }[] = [];
  const holding: Checkpoint[] = [];
  for (const { checkpoint, where } of sources.values()) {
    const { seq, hash, keyId } = checkpoint;
    const fail = (why: string) =>
      problems.push({
        seq,
        at: checkpoint.at.getTime(),
        text: `checkpoint of seq ${seq} at ${checkpoint.at.toISOString()} (in ${where.join(' and ')}): ${why}`,
      });
    if (keys.length > 0) {
      const key = keys.find((candidate) => candidate.keyId === keyId);
      if (!key) {
        fail(`signed by key ${keyId}, which is not a trusted key: not trusted`);
        continue;
      }
      if (!key.verifies(checkpointText(checkpoint), checkpoint.signature)) {
        fail(`its signature does not verify with key ${keyId}: forged or altered`);
        continue;
      }
    }
    const current = hashes.get(seq);
    if (seq > lastSeq) fail(`the chain now ends at seq ${lastSeq}: rows up to seq ${seq} were removed from its end`);
    else if (current === undefined) fail(`the row with seq ${seq} is gone`);
    else if (current !== hash)
      fail(`the row with seq ${seq} no longer has the hash signed: the chain was rewritten at or before it`);
    else if (!storedIds.has(identity(checkpoint)))
      fail('it is missing from the database (audit_checkpoints): checkpoints were removed');
    else holding.push(checkpoint);
  }

  const newest = holding.reduce<Checkpoint | null>(
    (best, c) => (!best || c.seq > best.seq || (c.seq === best.seq && c.at > best.at) ? c : best),
    null,
  );
  const fileProblems = evidence.files.flatMap((file) => file.problems);
  return {
    checked: sources.size,
    inDatabase: evidence.stored.length,
    inFiles: evidence.files.map((file) => ({ source: file.source, checkpoints: file.checkpoints.length })),
    signaturesChecked: keys.length > 0,
    newest: newest && { seq: newest.seq, at: newest.at, rowsAfter: Math.max(0, lastSeq - newest.seq) },
    problems: [
      ...problems.sort((a, b) => a.seq - b.seq || a.at - b.at).map((problem) => problem.text),
      ...fileProblems,
    ],
  };
}
