import type { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { DomainError } from '../domain/shared/errors.ts';
import { writeLine, type Cli } from './context.ts';

export function register(program: Command, { getApp, getDb, io }: Cli): void {
  const db = program.command('db').description("the PostgreSQL database's roles");
  db.command('grant-app-role')
    .description(
      "as the tables' owner (DATABASE_OWNER_URL, else DATABASE_URL): let ROLE use every table, the audit trail only to insert and read",
    )
    .argument('<role>', 'the PostgreSQL role the servers connect as (not the owner)')
    .action(async (role: string) => {
      const config = loadConfig();
      if (!config.databaseUrl)
        throw new DomainError(
          'invalid',
          'invalid',
          'the embedded database has one role: grant-app-role is for a PostgreSQL server (DATABASE_URL)',
        );
      // Migrated first, so the grants cover every table this release has.
      await getApp();
      const [{ grantAppRole }, { openPostgres }] = await Promise.all([
        import('../db/app-role.pg.ts'),
        import('../db/postgres.ts'),
      ]);
      if (config.databaseOwnerUrl) {
        const owner = await openPostgres(config.databaseOwnerUrl, { max: 1, timeouts: config.timeouts });
        try {
          await grantAppRole(owner, role);
        } finally {
          await owner.close();
        }
      } else {
        await grantAppRole(await getDb(), role);
      }
      writeLine(io.stdout, `Role "${role}" may now use Medora's tables; the audit trail it may only add to and read.`);
    });
}
