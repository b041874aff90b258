import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { rejects } from '../../testing/assert.ts';
import type { Actor } from '../shared/actor.ts';
import { fakeAuthDeps, fakeTotpCode, movableClock } from '../../testing/auth-fakes.ts';
import { actorOf } from './auth.ts';
import { beginMfa, completeSignIn, confirmMfa, disableMfa, mfaStatus, renewRecoveryCodes } from './mfa-use-cases.ts';
import { changePassword, issueResetLink, resetPassword } from './password-use-cases.ts';
import { authenticate, login, logoutEverywhere, type LoginJson, type SessionJson } from './use-cases.ts';

const client = { ip: '10.0.0.9' };
const STEP_MS = 30_000;

const opened = (answer: LoginJson): SessionJson => {
  assert.ok('token' in answer, 'a session');
  return answer;
};
const challenged = (answer: LoginJson) => {
  assert.ok('challenge' in answer, 'a second-factor challenge');
  return answer;
};

/** A user of `role` whose password is "first secret". */
async function setting(role: 'patient' | 'doctor' | 'admin' = 'doctor') {
  const clock = movableClock('2026-11-24T09:00:00Z');
  const fake = fakeAuthDeps(clock);
  const email = 'dana@example.test';
  const record = await fake.deps.accounts.createAdmin({ name: 'Dana Doc', email, passwordHash: 'hashed:first secret' });
  record.role = role; // the fake keeps this very object
  return { clock, fake, record, email };
}

async function signedIn(deps: ReturnType<typeof fakeAuthDeps>['deps'], email: string, password = 'first secret') {
  const session = opened(await login(deps, { email, password }, client));
  const actor = await authenticate(deps, session.token);
  return { token: session.token, actor };
}

describe('changing a password', () => {
  it('needs the current one, refuses the same one, and ends every other session while this one goes on', async () => {
    const { fake, email } = await setting();
    const here = await signedIn(fake.deps, email);
    const there = await signedIn(fake.deps, email);
    const wrong = await rejects(
      changePassword(
        fake.deps,
        { current_password: 'nope', new_password: 'second secret' },
        here.token,
        here.actor,
        client,
      ),
      'invalid',
    );
    assert.ok(wrong.fields?.current_password);
    await rejects(
      changePassword(
        fake.deps,
        { current_password: 'first secret', new_password: 'first secret' },
        here.token,
        here.actor,
        client,
      ),
      'invalid',
    );
    const renewed = await changePassword(
      fake.deps,
      { current_password: 'first secret', new_password: 'second secret' },
      here.token,
      here.actor,
      client,
    );
    await rejects(authenticate(fake.deps, there.token), 'unauthenticated');
    await rejects(authenticate(fake.deps, here.token), 'unauthenticated');
    assert.equal((await authenticate(fake.deps, renewed.token)).userId, here.actor.userId);
    assert.ok(fake.audit.some((e) => e.action === 'password_changed'));
  });

  it('signs out everywhere', async () => {
    const { fake, email } = await setting('patient');
    const a = await signedIn(fake.deps, email);
    const b = await signedIn(fake.deps, email);
    await logoutEverywhere(fake.deps, a.actor);
    await rejects(authenticate(fake.deps, a.token), 'unauthenticated');
    await rejects(authenticate(fake.deps, b.token), 'unauthenticated');
  });
});

describe('reset links', () => {
  const adminActor: Actor = { userId: 99, role: 'admin', name: 'Ada' };

  it('works once within 30 minutes, ends every session, and only admins make them', async () => {
    const { fake, clock, email } = await setting('patient');
    const session = await signedIn(fake.deps, email);
    await rejects(issueResetLink(fake.deps, { email }, session.actor), 'forbidden');
    const link = await issueResetLink(fake.deps, { email }, adminActor);
    assert.equal(fake.resets[0]?.tokenHash, `digest:${link.token}`, 'only the digest is kept');
    clock.advance(29 * 60_000);
    await resetPassword(fake.deps, { token: link.token, password: 'patient picked this' }, client);
    await rejects(authenticate(fake.deps, session.token), 'unauthenticated');
    await rejects(
      resetPassword(fake.deps, { token: link.token, password: 'and again now' }, client),
      'invalid',
      'reset_link_invalid',
    );
    assert.ok(opened(await login(fake.deps, { email, password: 'patient picked this' }, client)));
  });

  it('expires after 30 minutes and refuses a weak password', async () => {
    const { fake, clock, email } = await setting('patient');
    const link = await issueResetLink(fake.deps, { email }, adminActor);
    await rejects(resetPassword(fake.deps, { token: link.token, password: 'password' }, client), 'invalid');
    clock.advance(31 * 60_000);
    await rejects(
      resetPassword(fake.deps, { token: link.token, password: 'patient picked this' }, client),
      'invalid',
      'reset_link_invalid',
    );
  });
});

describe('two-step sign-in', () => {
  async function enrolled() {
    const s = await setting('doctor');
    const { actor } = await signedIn(s.fake.deps, s.email);
    const setup = await beginMfa(s.fake.deps, actor);
    const step = Math.floor(s.clock.now().getTime() / STEP_MS);
    await rejects(confirmMfa(s.fake.deps, { code: '123456' }, actor), 'invalid');
    const { recovery_codes } = await confirmMfa(s.fake.deps, { code: fakeTotpCode(setup.secret, step) }, actor);
    return { ...s, actor, secret: setup.secret, codes: recovery_codes };
  }

  it('turns on with the first code and gives ten recovery codes, kept as digests', async () => {
    const { fake, actor, codes } = await enrolled();
    assert.equal(codes.length, 10);
    assert.ok(fake.recoveryCodes.every((c) => c.codeHash.startsWith('digest:')));
    assert.deepEqual(await mfaStatus(fake.deps, actor), {
      enabled: true,
      required: false,
      available: true,
      recovery_codes_left: 10,
    });
    await rejects(beginMfa(fake.deps, actor), 'conflict', 'mfa_enabled');
  });

  it('asks for a code after the password, accepts each time step once, and a recovery code once', async () => {
    const { fake, clock, email, secret, codes } = await enrolled();
    clock.advance(STEP_MS);
    const first = challenged(await login(fake.deps, { email, password: 'first secret' }, client));
    const code = fakeTotpCode(secret, Math.floor(clock.now().getTime() / STEP_MS));
    assert.ok(await completeSignIn(fake.deps, { challenge: first.challenge, code }, client));
    await rejects(
      completeSignIn(fake.deps, { challenge: first.challenge, code }, client),
      'unauthenticated',
      'challenge_expired',
    );
    const second = challenged(await login(fake.deps, { email, password: 'first secret' }, client));
    await rejects(completeSignIn(fake.deps, { challenge: second.challenge, code }, client), 'invalid');
    const recovery = ` ${codes[3]?.toUpperCase()} `;
    assert.ok(await completeSignIn(fake.deps, { challenge: second.challenge, recovery_code: recovery }, client));
    const third = challenged(await login(fake.deps, { email, password: 'first secret' }, client));
    await rejects(
      completeSignIn(fake.deps, { challenge: third.challenge, recovery_code: recovery }, client),
      'invalid',
    );
  });

  it('lets a challenge expire after ten minutes, and slows down guessed codes', async () => {
    const { fake, clock, email } = await enrolled();
    const stale = challenged(await login(fake.deps, { email, password: 'first secret' }, client));
    clock.advance(11 * 60_000);
    await rejects(
      completeSignIn(fake.deps, { challenge: stale.challenge, code: '000000' }, client),
      'unauthenticated',
      'challenge_expired',
    );
    const fresh = challenged(await login(fake.deps, { email, password: 'first secret' }, client));
    for (let i = 0; i < 5; i++)
      await rejects(completeSignIn(fake.deps, { challenge: fresh.challenge, code: '000000' }, client), 'invalid');
    const slowed = await rejects(
      completeSignIn(fake.deps, { challenge: fresh.challenge, code: '000000' }, client),
      'too_many',
    );
    assert.ok((slowed.retryAfterSeconds ?? 0) > 0);
  });

  it('needs the password to turn off or renew codes, and is refused to patients', async () => {
    const { fake, actor } = await enrolled();
    await rejects(disableMfa(fake.deps, { password: 'wrong' }, actor), 'invalid');
    const renewed = await renewRecoveryCodes(fake.deps, { password: 'first secret' }, actor);
    assert.equal(renewed.recovery_codes.length, 10);
    await disableMfa(fake.deps, { password: 'first secret' }, actor);
    assert.equal((await mfaStatus(fake.deps, actor)).enabled, false);
    const patient = await setting('patient');
    const record = await patient.record;
    await rejects(beginMfa(patient.fake.deps, { ...actorOf(record), role: 'patient' }), 'forbidden');
  });
});
