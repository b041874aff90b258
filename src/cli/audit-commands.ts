import type { Command } from 'commander';
import { DomainError } from '../domain/shared/errors.ts';
import { writeLine, type Cli } from './context.ts';

export function register(program: Command, { getApp, io }: Cli): void {
  const audit = program.command('audit').description('the audit trail: its integrity and retention');
  audit
    .command('verify')
    .description('recompute the hash chain of the audit trail; names the first changed, removed or inserted row (exit 1)')
    .action(async () => {
      const check = await (await getApp()).audit.verifyTrail();
      if (!check.intact) {
        const where = check.brokenAt === null ? '' : ` at row ${check.brokenAt}`;
        throw new DomainError('conflict', 'audit_chain_broken', `audit trail broken${where}: ${check.reason}`);
      }
      writeLine(io.stdout, `OK: ${check.rows} audit rows, chain intact.`);
    });
  audit
    .command('prune')
    .description('delete failed sign-ins that named no account, older than AUDIT_ANONYMOUS_RETENTION_DAYS (90); serve does it daily')
    .action(async () => {
      const { removed, olderThanDays } = await (await getApp()).audit.pruneAnonymousFailures();
      writeLine(io.stdout, `Removed ${removed} anonymous failed sign-in(s) older than ${olderThanDays} days.`);
    });
}
