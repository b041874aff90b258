import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { rejects } from '../../testing/assert.ts';
import { authenticate, createAdmin, login, logout, register, type LoginJson, type SessionJson } from './use-cases.ts';
import { fakeAuthDeps, movableClock } from '../../testing/auth-fakes.ts';
import { at, present } from '../../testing/assert.ts';

const patient = {
  name: 'Jane Roe',
  email: 'jane@example.test',
  password: 'secret pass',
  phone: '+1 555 0199',
  birthdate: '1990-02-03',
  gender: 'female',
};
const client = { ip: '10.0.0.7' };

/** The answer of a sign-in that opened a session (no second factor asked for). */
function opened(answer: LoginJson): SessionJson {
  assert.ok('token' in answer, 'a session, not a second-factor challenge');
  return answer;
}

describe('register', () => {
  it('always makes a patient, whatever role the body asks for', async () => {
    const { deps, users } = fakeAuthDeps(movableClock('2026-06-01T10:00:00Z'));
    await register(deps, { ...patient, role: 'admin' });
    assert.deepEqual(
      users.map((u) => u.role),
      ['patient'],
    );
  });

  it('refuses a password that is short, too long or among the most common, and keeps one as typed', async () => {
    const { deps } = fakeAuthDeps(movableClock('2026-06-01T10:00:00Z'));
    for (const [password, problem] of [
      ['seven77', /at least 8 characters/],
      ['password1', /most common passwords/],
      ['PassWord1', /most common passwords/],
      ['x'.repeat(129), /at most 128 characters/],
    ] as const) {
      const error = await rejects(
        register(deps, { ...patient, email: `${password.length}@example.test`, password }),
        'invalid',
      );
      assert.match(error.fields?.password?.[0] ?? '', problem);
    }
    await register(deps, { ...patient, password: '  spaced words  ' });
    await rejects(login(deps, { email: patient.email, password: 'spaced words' }, client), 'unauthenticated');
    assert.ok(await login(deps, { email: patient.email, password: '  spaced words  ' }, client));
  });

  it('names every missing or bad field at once', async () => {
    const { deps } = fakeAuthDeps(movableClock('2026-06-01T10:00:00Z'));
    const error = await rejects(
      register(deps, { email: 'not-an-email', gender: 'robot', birthdate: '2026-02-30' }),
      'invalid',
    );
    assert.deepEqual(Object.keys(present(error.fields)).sort(), [
      'birthdate',
      'email',
      'gender',
      'name',
      'password',
      'phone',
    ]);
  });

  it('refuses a birthdate in the future', async () => {
    const { deps } = fakeAuthDeps(movableClock('2026-06-01T10:00:00Z'));
    const error = await rejects(register(deps, { ...patient, birthdate: '2030-01-01' }), 'invalid');
    assert.ok(error.fields?.birthdate);
  });

  it('answers an address with an account, in any case, as a new one, and tells its owner instead', async () => {
    const { deps, users, messages, audit } = fakeAuthDeps(movableClock('2026-06-01T10:00:00Z'));
    const fresh = await register(deps, patient);
    const again = await register(deps, { ...patient, email: 'JANE@example.test', password: 'another secret' }, client);
    assert.deepEqual(again, { ...fresh, message: fresh.message.replace(patient.email, 'JANE@example.test') });
    assert.equal(users.length, 1, 'no second account');
    assert.deepEqual(
      messages.map((m) => [m.kind, m.to]),
      [
        ['email_verification', patient.email],
        ['registration_attempt', patient.email],
      ],
    );
    assert.match(at(messages, 1).text, /already has an account, so nothing was created/);
    assert.ok(audit.some((e) => e.action === 'register_taken_email' && e.entityId === at(users, 0).id));
    assert.ok(
      await login(deps, { email: patient.email, password: patient.password }, client),
      "the password stays the owner's",
    );
  });

  it('tells the owner of a taken address a few times an hour at most, and answers the same past that', async () => {
    const { deps, messages } = fakeAuthDeps(movableClock('2026-06-01T10:00:00Z'));
    await register(deps, patient);
    const answers = new Set<string>();
    for (let i = 0; i < 6; i++) answers.add(JSON.stringify(await register(deps, patient, { ip: `10.0.1.${i}` })));
    assert.equal(answers.size, 1);
    assert.equal(messages.filter((m) => m.kind === 'registration_attempt').length, 3);
  });
});

describe('login', () => {
  it('opens a 12-hour session, or 30 days when remembered', async () => {
    const clock = movableClock('2026-06-01T10:00:00Z');
    const { deps, sessions } = fakeAuthDeps(clock);
    await register(deps, patient);
    const answer = opened(await login(deps, { email: patient.email, password: patient.password }, client));
    assert.equal(answer.role, 'patient');
    assert.equal(at(sessions, 0).expiresAt.toISOString(), '2026-06-01T22:00:00.000Z');
    assert.equal(at(sessions, 0).tokenHash, `digest:${answer.token}`, 'only the digest is stored');
    await login(deps, { email: patient.email, password: patient.password, remember: true }, client);
    assert.equal(at(sessions, 1).expiresAt.toISOString(), '2026-07-01T10:00:00.000Z');
  });

  it('gives the same answer for an unknown email and a wrong password', async () => {
    const { deps } = fakeAuthDeps(movableClock('2026-06-01T10:00:00Z'));
    await register(deps, patient);
    const wrongPassword = await rejects(
      login(deps, { email: patient.email, password: 'nope' }, client),
      'unauthenticated',
    );
    const unknownEmail = await rejects(
      login(deps, { email: 'ghost@example.test', password: 'nope' }, client),
      'unauthenticated',
    );
    assert.equal(wrongPassword.message, unknownEmail.message);
    assert.equal(wrongPassword.code, unknownEmail.code);
  });

  it('audits a login and a failed login', async () => {
    const { deps, audit } = fakeAuthDeps(movableClock('2026-06-01T10:00:00Z'));
    await register(deps, patient);
    await rejects(login(deps, { email: patient.email, password: 'nope' }, client), 'unauthenticated');
    await login(deps, { email: patient.email, password: patient.password }, client);
    assert.deepEqual(
      audit.map((e) => e.action),
      ['register', 'login_failed', 'login'],
    );
  });

  it('slows one email from one address after 10 failures with a doubling wait, and says how long', async () => {
    const clock = movableClock('2026-06-01T10:00:00Z');
    const { deps } = fakeAuthDeps(clock);
    await register(deps, patient);
    for (let i = 0; i < 10; i++)
      await rejects(login(deps, { email: patient.email, password: 'nope' }, client), 'unauthenticated');
    const refused = await rejects(
      login(deps, { email: patient.email, password: patient.password }, client),
      'too_many',
      'too_many_attempts',
    );
    assert.equal(refused.retryAfterSeconds, 5);
    const elsewhere = opened(
      await login(deps, { email: patient.email, password: patient.password }, { ip: '10.0.0.8' }),
    );
    assert.ok(elsewhere.token, 'another address is not locked out');
    clock.advance(5000);
    await rejects(login(deps, { email: patient.email, password: 'nope' }, client), 'unauthenticated');
    assert.equal(
      (await rejects(login(deps, { email: patient.email, password: 'nope' }, client), 'too_many')).retryAfterSeconds,
      10,
    );
    clock.advance(10_000);
    assert.ok(
      opened(await login(deps, { email: patient.email, password: patient.password }, client)).token,
      'the right password after the wait',
    );
    for (let i = 0; i < 10; i++)
      await rejects(login(deps, { email: patient.email, password: 'nope' }, client), 'unauthenticated');
  });

  it('slows an address spraying many emails for at most 30 seconds, so a colleague behind it still signs in', async () => {
    const clock = movableClock('2026-06-01T10:00:00Z');
    const { deps } = fakeAuthDeps(clock);
    await register(deps, patient);
    for (let i = 0; i < 100; i++)
      await rejects(login(deps, { email: `guess${i}@example.test`, password: 'x' }, client), 'unauthenticated');
    // The sprayer keeps going, each time as soon as it may: the wait grows, but never past 30 seconds.
    for (let i = 0; i < 8; i++) {
      const waited = await rejects(login(deps, { email: `more${i}@example.test`, password: 'x' }, client), 'too_many');
      assert.ok((waited.retryAfterSeconds ?? 0) <= 30, `waited ${waited.retryAfterSeconds}`);
      clock.advance((waited.retryAfterSeconds ?? 0) * 1000);
      await rejects(login(deps, { email: `more${i}@example.test`, password: 'x' }, client), 'unauthenticated');
    }
    const colleague = await rejects(
      login(deps, { email: patient.email, password: patient.password }, client),
      'too_many',
    );
    assert.equal(colleague.retryAfterSeconds, 30);
    clock.advance(30_000);
    assert.ok(opened(await login(deps, { email: patient.email, password: patient.password }, client)).token);
  });

  it('keeps a typed e-mail in the audit only when it names an account', async () => {
    const { deps, audit } = fakeAuthDeps(movableClock('2026-06-01T10:00:00Z'));
    await register(deps, patient);
    await rejects(login(deps, { email: 'stranger@example.test', password: 'x' }, client), 'unauthenticated');
    await rejects(login(deps, { email: patient.email.toUpperCase(), password: 'x' }, client), 'unauthenticated');
    const failures = audit.filter((e) => e.action === 'login_failed').map((e) => e.details);
    assert.deepEqual(failures, [{ ip: client.ip }, { email: patient.email, ip: client.ip }]);
  });

  it('slows sign-ups from one address after twenty', async () => {
    const { deps } = fakeAuthDeps(movableClock('2026-06-01T10:00:00Z'));
    for (let i = 0; i < 20; i++)
      await register(deps, { ...patient, email: `family${i}@example.test` }, { ip: client.ip });
    const refused = await rejects(
      register(deps, { ...patient, email: 'sixth@example.test' }, { ip: client.ip }),
      'too_many',
    );
    assert.equal(refused.retryAfterSeconds, 10);
    await register(deps, { ...patient, email: 'elsewhere@example.test' }, { ip: '10.9.9.9' });
  });
});

describe('sessions', () => {
  it('ends a session at logout and at expiry', async () => {
    const clock = movableClock('2026-06-01T10:00:00Z');
    const { deps } = fakeAuthDeps(clock);
    await register(deps, patient);
    const first = opened(await login(deps, { email: patient.email, password: patient.password }, client));
    const actor = await authenticate(deps, first.token);
    await logout(deps, first.token, actor);
    await rejects(authenticate(deps, first.token), 'unauthenticated');

    const second = opened(await login(deps, { email: patient.email, password: patient.password }, client));
    clock.advance(12 * 3_600_000 + 1);
    await rejects(authenticate(deps, second.token), 'unauthenticated');
  });

  it('refuses a missing or unknown token', async () => {
    const { deps } = fakeAuthDeps(movableClock('2026-06-01T10:00:00Z'));
    await rejects(authenticate(deps, undefined), 'unauthenticated');
    await rejects(authenticate(deps, 'forged'), 'unauthenticated');
  });
});

describe('createAdmin', () => {
  it('refuses an email that already has an account', async () => {
    const { deps } = fakeAuthDeps(movableClock('2026-06-01T10:00:00Z'));
    await createAdmin(deps, { name: 'A', email: 'a@example.test', password: 'long enough pw' });
    await rejects(
      createAdmin(deps, { name: 'B', email: 'A@example.test', password: 'long enough pw' }),
      'conflict',
      'email_taken',
    );
  });
});
