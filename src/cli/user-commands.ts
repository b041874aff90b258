import type { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { cliActor } from '../domain/shared/actor.ts';
import { resetPasswordLink } from '../links.ts';
import { writeLine, type Cli } from './context.ts';

export function register(program: Command, { getApp, io }: Cli): void {
  const users = program.command('users').description('help users who cannot sign in');
  users
    .command('reset-password')
    .description('print a one-time link (30 minutes) where the user sets a new password; it ends all their sessions')
    .argument('<email>', 'the e-mail address the user signs in with')
    .action(async (email: string) => {
      const app = await getApp();
      const link = await app.passwords.issueResetLink({ email }, cliActor());
      writeLine(
        io.stdout,
        `Reset link for ${link.user.name} <${link.user.email}>, valid once until ${link.expires_at}:`,
      );
      // PUBLIC_URL: where the user's browser reaches Medora, which the terminal cannot know otherwise.
      writeLine(io.stdout, resetPasswordLink(loadConfig().publicUrl, link.token));
    });
  users
    .command('reset-mfa')
    .description(
      "remove a staff member's authenticator (lost phone); they sign in with the password and may set up a new one",
    )
    .argument('<email>', 'the e-mail address the user signs in with')
    .action(async (email: string) => {
      const app = await getApp();
      const { email: done } = await app.mfa.resetUserMfa({ email }, cliActor());
      writeLine(io.stdout, `Two-step sign-in of ${done} was reset.`);
    });
}
