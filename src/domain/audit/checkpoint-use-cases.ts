import type { Clock } from '../shared/clock.ts';
import { DomainError } from '../shared/errors.ts';
import { judgeCheckpoints, readCheckpointFile, type CheckpointReport } from './checkpoint-check.ts';
import {
  checkpointText,
  type ChainLinks,
  type Checkpoint,
  type CheckpointFile,
  type CheckpointKey,
  type CheckpointSigner,
  type CheckpointStore,
} from './checkpoint.ts';

export interface CheckpointStores {
  links: ChainLinks;
  checkpoints: CheckpointStore;
}

export interface CheckpointDeps extends CheckpointStores {
  clock: Clock;
  /** Null when no AUDIT_SIGNING_KEY_FILE is set. */
  signer: CheckpointSigner | null;
  /** The public keys a checkpoint is trusted under; none when no key is set. */
  trustedKeys: CheckpointKey[];
  /** All or nothing: `fn` gets the stores bound to one transaction. */
  transaction<T>(fn: (tx: CheckpointStores) => Promise<T>): Promise<T>;
}

export type SignOutcome = { signed: Checkpoint } | { signed: null; reason: 'empty' | 'unchanged' };

/**
 * Signs the chain's newest link as of now and stores the checkpoint. With `onlyIfMoved` (the hourly job), nothing is
 * signed when the latest checkpoint, verified under this key, already names that link.
 */
export async function signCheckpoint(deps: CheckpointDeps, opts: { onlyIfMoved: boolean }): Promise<SignOutcome> {
  const signer = deps.signer;
  if (!signer)
    throw new DomainError(
      'invalid',
      'no_signing_key',
      'no signing key: set AUDIT_SIGNING_KEY_FILE to a key made by `medora audit keygen`',
    );
  return deps.transaction(async (tx): Promise<SignOutcome> => {
    await tx.checkpoints.lock();
    const head = await tx.links.newest();
    if (!head) return { signed: null, reason: 'empty' };
    if (opts.onlyIfMoved) {
      const last = await tx.checkpoints.latest();
      // A row anyone with INSERT could have written does not count unless it is this key's own signature.
      const covered =
        last &&
        last.seq === head.seq &&
        last.hash === head.hash &&
        last.keyId === signer.keyId &&
        signer.verifies(checkpointText(last), last.signature);
      if (covered) return { signed: null, reason: 'unchanged' };
    }
    const at = deps.clock.now();
    const checkpoint: Checkpoint = {
      ...head,
      at,
      keyId: signer.keyId,
      signature: signer.sign(checkpointText({ ...head, at })),
    };
    await tx.checkpoints.add(checkpoint);
    return { signed: checkpoint };
  });
}

/**
 * Checks every checkpoint in the database and in `files` (lines kept elsewhere, in case the database's were
 * deleted too) against the chain and the trusted keys.
 */
export async function verifyCheckpoints(deps: CheckpointDeps, files: CheckpointFile[] = []): Promise<CheckpointReport> {
  const stored = await deps.checkpoints.all();
  // Read after the checkpoints: a checkpoint never names a seq beyond the newest link, unless rows were removed.
  const newest = await deps.links.newest();
  const read = files.map((file) => ({ source: file.source, ...readCheckpointFile(file) }));
  const seqs = [...new Set([...stored, ...read.flatMap((file) => file.checkpoints)].map((c) => c.seq))];
  const hashes = await deps.links.hashesAt(seqs);
  return judgeCheckpoints({ stored, files: read, keys: deps.trustedKeys, hashes, lastSeq: newest?.seq ?? 0 });
}
