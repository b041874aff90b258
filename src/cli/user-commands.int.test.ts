import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { openCliDatabase, type CliDatabase } from '../testing/cli.ts';
import { testDatabases } from '../testing/test-db.ts';

for (const target of testDatabases('one')) {
  describe(`${target.name}: medora users`, () => {
    let database: CliDatabase;
    before(async () => {
      database = await openCliDatabase(target);
    });
    after(() => database.drop());

    it('prints a one-time reset link at PUBLIC_URL that sets a new password once', async () => {
      const run = await database.medora(
        ['admin', 'create', '--email', 'lost@clinic.test', '--name', 'Lou Lost', '--password-stdin'],
        'first long secret\n',
      );
      assert.equal(run.code, 0, run.stderr);
      const previous = process.env.PUBLIC_URL;
      process.env.PUBLIC_URL = 'https://clinic.example.org';
      const reset = await database.medora(['users', 'reset-password', 'LOST@clinic.test']).finally(() => {
        if (previous === undefined) delete process.env.PUBLIC_URL;
        else process.env.PUBLIC_URL = previous;
      });
      assert.equal(reset.code, 0, reset.stderr);
      assert.match(reset.stdout, /^Reset link for Lou Lost <lost@clinic.test>, valid once until \d{4}-\d\d-\d\dT/);
      const token = /^https:\/\/clinic\.example\.org\/reset-password#token=([\w-]+)$/m.exec(reset.stdout)?.[1];
      assert.ok(token, reset.stdout);

      const app = database.app;
      await app.passwords.resetPassword({ token, password: 'second long secret' }, { ip: '127.0.0.1' });
      assert.ok(
        'token' in
          (await app.auth.login({ email: 'lost@clinic.test', password: 'second long secret' }, { ip: '127.0.0.1' })),
      );
    });

    it('names an unknown user with exit 1, and resets an authenticator only where there is one', async () => {
      const unknown = await database.medora(['users', 'reset-password', 'nobody@clinic.test']);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /^error: User not found$/m);
      const none = await database.medora(['users', 'reset-mfa', 'lost@clinic.test']);
      assert.equal(none.code, 1);
      assert.match(none.stderr, /has no two-step sign-in/);
    });
  });
}
