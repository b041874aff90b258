import type { Command } from 'commander';
import { writeLine, type Cli } from './context.ts';
import { readPassword } from './output.ts';

export function register(program: Command, { getApp, io }: Cli): void {
  const admin = program.command('admin').description('administrator accounts');
  admin
    .command('create')
    .description('create an admin account (the password is read from stdin, never from the command line)')
    .requiredOption('--email <email>', 'e-mail address to sign in with')
    .requiredOption('--name <name>', 'full name')
    .requiredOption('--password-stdin', 'read the password from standard input')
    .action(async (opts: { email: string; name: string }) => {
      const password = await readPassword(io.stdin);
      const app = await getApp();
      const user = await app.auth.createAdmin({ email: opts.email, name: opts.name, password });
      writeLine(io.stdout, `Created admin ${user.email} (id ${user.id}).`);
    });
}
