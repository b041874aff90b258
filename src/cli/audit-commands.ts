import { InvalidArgumentError, type Command } from 'commander';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { CheckpointReport } from '../domain/audit/checkpoint-check.ts';
import { CHECKPOINT_MARKER, checkpointLine, type CheckpointFile } from '../domain/audit/checkpoint.ts';
import { DEFAULT_MAX_UNSEALED_SECONDS, type SealBacklog } from '../domain/audit/audit.ts';
import type { TrailCheck } from '../domain/audit/use-cases.ts';
import { DomainError } from '../domain/shared/errors.ts';
import { writeLine, type Cli } from './context.ts';

/** The lines of `path` that mention a checkpoint, read as a stream: a server's whole log may be given. */
async function checkpointLines(path: string): Promise<CheckpointFile> {
  const lines: CheckpointFile['lines'] = [];
  let number = 0;
  const input = createReadStream(path, 'utf8');
  try {
    for await (const text of createInterface({ input, crlfDelay: Infinity })) {
      number++;
      if (text.includes(CHECKPOINT_MARKER)) lines.push({ number, text });
    }
  } catch (error) {
    throw new DomainError('invalid', 'invalid', `--checkpoints ${path} cannot be read: ${(error as Error).message}`);
  } finally {
    input.destroy();
  }
  return { source: path, lines };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What verify prints when everything holds. */
function checkpointSummary(report: CheckpointReport): string {
  if (report.checked === 0)
    return 'No checkpoints yet: medora serve signs one every hour with AUDIT_SIGNING_KEY_FILE set, or run medora audit checkpoint.';
  const where = [
    `${report.inDatabase} in the database`,
    ...report.inFiles.map((file) => `${file.checkpoints} in ${file.source}`),
  ].join(', ');
  const newest = report.newest
    ? `; the newest, of seq ${report.newest.seq} at ${report.newest.at.toISOString()}, has ${plural(report.newest.rowsAfter, 'row')} after it`
    : '';
  return `OK: ${plural(report.checked, 'checkpoint')} ${report.signaturesChecked ? 'verified' : 'match the chain'} (${where})${newest}.`;
}

const seconds = (age: number | null) => `${(age ?? 0).toFixed(1)} s`;

/** What verify prints of the rows not yet sealed into the chain. */
function backlogSummary({ rows, oldestAgeSeconds }: SealBacklog): string {
  return rows === 0
    ? 'Sealing: no row waits.'
    : `Sealing: ${plural(rows, 'row')} wait${rows === 1 ? 's' : ''}, the oldest for ${seconds(oldestAgeSeconds)}.`;
}

const stalledText = ({ backlog }: TrailCheck, maxSeconds: number) =>
  `audit rows are not being sealed: ${plural(backlog.rows, 'row')} wait, the oldest for ${seconds(backlog.oldestAgeSeconds)} ` +
  `(more than ${maxSeconds} s): no medora serve or medora worker is sealing them`;

/** Exit 1 naming the first problem, the others listed under it. */
function trailBroken(check: TrailCheck, report: CheckpointReport, maxSeconds: number): DomainError {
  const { chain } = check;
  const stalled = check.stalled ? [stalledText(check, maxSeconds)] : [];
  const [first, ...rest] = [...(chain.intact ? [] : [chain.reason]), ...report.problems];
  if (first === undefined) return new DomainError('conflict', 'audit_not_sealed', stalled.join(''));
  const where = !chain.intact && chain.brokenAt !== null ? ` at row ${chain.brokenAt}` : '';
  const also = [...rest, ...stalled];
  return new DomainError(
    'conflict',
    'audit_trail_broken',
    `audit trail broken${where}: ${first}`,
    also.length > 0 ? { also } : undefined,
  );
}

function maxSecondsOf(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new InvalidArgumentError('a number of seconds above 0');
  return seconds;
}

export function register(program: Command, { getApp, io }: Cli): void {
  const audit = program.command('audit').description('the audit trail: its integrity and retention');
  audit
    .command('verify')
    .description(
      'recompute the hash chain of the audit trail and check its signed checkpoints; names the first changed, removed or inserted row, ' +
        'or rows left unsealed too long (exit 1)',
    )
    .option(
      '--checkpoints <file>',
      "also check the checkpoint lines in FILE (e.g. the server's log), kept outside the database",
    )
    .option(
      '--max-unsealed-age <seconds>',
      'fail when a row has waited longer than this to be sealed: no sealer is running',
      maxSecondsOf,
      DEFAULT_MAX_UNSEALED_SECONDS,
    )
    .action(async (opts: { checkpoints?: string; maxUnsealedAge: number }) => {
      const files = opts.checkpoints ? [await checkpointLines(opts.checkpoints)] : [];
      const app = await getApp();
      const check = await app.audit.verifyTrail(opts.maxUnsealedAge);
      const report = await app.auditCheckpoints.verifyCheckpoints(files);
      if (!check.chain.intact || check.stalled || report.problems.length > 0)
        throw trailBroken(check, report, opts.maxUnsealedAge);
      writeLine(io.stdout, `OK: ${check.chain.rows} audit rows, chain intact.`);
      writeLine(io.stdout, backlogSummary(check.backlog));
      writeLine(io.stdout, checkpointSummary(report));
      if (report.checked > 0 && !report.signaturesChecked) {
        writeLine(
          io.stderr,
          "warning: no key to check the checkpoints' signatures: set AUDIT_VERIFY_KEY_FILE (or AUDIT_SIGNING_KEY_FILE).",
        );
      }
    });
  audit
    .command('checkpoint')
    .description(
      "sign the chain's newest row now with AUDIT_SIGNING_KEY_FILE and store it; prints it as a log line (serve does it hourly)",
    )
    .action(async () => {
      const outcome = await (await getApp()).auditCheckpoints.signCheckpoint({ onlyIfMoved: false });
      writeLine(
        io.stdout,
        outcome.signed ? checkpointLine(outcome.signed) : 'The audit trail has no chained rows yet: nothing to sign.',
      );
    });
  audit
    .command('keygen')
    .description(
      'write a new Ed25519 signing key for checkpoints to FILE (owner-only; never overwrites) and print its public key',
    )
    .requiredOption('--out <file>', 'where the private key goes: AUDIT_SIGNING_KEY_FILE of the servers')
    .action(async (opts: { out: string }) => {
      const { writeNewSigningKey } = await import('../audit-signing.ts');
      const { keyId, publicPem } = await writeNewSigningKey(opts.out);
      // The public key alone on stdout, so `> medora-audit.pub` keeps just it.
      io.stdout.write(publicPem);
      writeLine(
        io.stderr,
        `Wrote signing key ${keyId} to ${opts.out}. Set AUDIT_SIGNING_KEY_FILE=${opts.out} for medora serve;`,
      );
      writeLine(
        io.stderr,
        'give the public key above to whoever verifies the trail (AUDIT_VERIFY_KEY_FILE), and keep a copy off this machine.',
      );
    });
  audit
    .command('prune')
    .description(
      'delete failed sign-ins that named no account, older than AUDIT_ANONYMOUS_RETENTION_DAYS (90); serve does it daily',
    )
    .action(async () => {
      const { removed, olderThanDays } = await (await getApp()).audit.pruneAnonymousFailures();
      writeLine(io.stdout, `Removed ${removed} anonymous failed sign-in(s) older than ${olderThanDays} days.`);
    });
}
