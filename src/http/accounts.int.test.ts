import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { testDatabases } from '../testing/test-db.ts';
import {
  PASSWORD,
  signIn,
  signUpAdmin,
  signUpPatient,
  startTestServer,
  uniqueEmail,
  type ApiAnswer,
  type TestServer,
} from '../testing/http.ts';

/** The code an authenticator app shows for `secret` now, or `stepsAhead` steps later. */
const codeFor = (secret: string, stepsAhead = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });

/** The cookie a Set-Cookie header sets, as a browser would send it back. */
const cookieOf = (answer: ApiAnswer) => (answer.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

for (const target of testDatabases('one')) {
  describe(`accounts over HTTP on ${target.name}`, () => {
    let server: TestServer;
    let admin: string;
    before(async () => {
      server = await startTestServer(target);
      admin = (await signUpAdmin(server)).token;
    });
    after(() => server.close());

    const userOf = (token: string) => server.api('GET', '/api/user', { token });
    const sameOrigin = () => ({ origin: server.url });

    async function newDoctor() {
      const email = uniqueEmail('doctor');
      const made = await server.api('POST', '/api/admin/doctors', {
        token: admin,
        body: { name: 'Dr. Ada Step', email, password: PASSWORD },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      return { id: made.body.id as number, email };
    }

    describe('browser sessions in a cookie', () => {
      it('signs in with an HttpOnly SameSite=Lax cookie and no token in the body; a browser-session cookie unless remembered', async () => {
        const { email } = await signUpPatient(server);
        const res = await server.api('POST', '/api/session', {
          body: { email, password: PASSWORD },
          headers: sameOrigin(),
        });
        assert.equal(res.status, 200);
        assert.equal(res.body.token, undefined, 'the page never sees the token');
        assert.equal(res.body.role, 'patient');
        const cookie = res.headers.get('set-cookie') ?? '';
        assert.match(
          cookie,
          /^medora_session=[\w-]{20,}; Path=\/; HttpOnly; SameSite=Lax$/,
          'no Max-Age: gone when the browser closes',
        );
        const me = await server.api('GET', '/api/user', { headers: { cookie: cookieOf(res) } });
        assert.equal(me.body.email, email);

        const remembered = await server.api('POST', '/api/session', {
          body: { email, password: PASSWORD, remember: true },
          headers: sameOrigin(),
        });
        assert.match(remembered.headers.get('set-cookie') ?? '', /Max-Age=2592000$/, 'thirty days');
      });

      it('names the cookie __Host- and marks it Secure behind a proxy that says HTTPS', async () => {
        const { email } = await signUpPatient(server);
        const headers = { origin: server.url.replace('http:', 'https:'), 'x-forwarded-proto': 'https' };
        const res = await server.api('POST', '/api/session', { body: { email, password: PASSWORD }, headers });
        assert.match(
          res.headers.get('set-cookie') ?? '',
          /^__Host-medora_session=.+; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
        );
        const plainName = cookieOf(res).replace('__Host-', '');
        assert.equal(
          (await server.api('GET', '/api/user', { headers: { cookie: plainName, 'x-forwarded-proto': 'https' } }))
            .status,
          401,
        );
        assert.equal(
          (await server.api('GET', '/api/user', { headers: { cookie: cookieOf(res), 'x-forwarded-proto': 'https' } }))
            .status,
          200,
        );
      });

      it('refuses a write through the cookie from another origin or with no origin, and lets its own pages through', async () => {
        const { email } = await signUpPatient(server);
        const cookie = cookieOf(
          await server.api('POST', '/api/session', { body: { email, password: PASSWORD }, headers: sameOrigin() }),
        );
        const write = (headers: Record<string, string>) =>
          server.api('POST', '/api/logout/everywhere', { headers: { cookie, ...headers } });
        const foreign: Record<string, string>[] = [
          {},
          { origin: 'http://evil.example' },
          { 'sec-fetch-site': 'cross-site' },
          { 'sec-fetch-site': 'same-site', origin: server.url },
        ];
        for (const headers of foreign) {
          const refused = await write(headers);
          assert.equal(refused.status, 403, JSON.stringify(headers));
          assert.equal(refused.body.code, 'cross_site_request');
        }
        assert.equal(
          (await server.api('GET', '/api/user', { headers: { cookie, 'sec-fetch-site': 'cross-site' } })).status,
          200,
          'reads are not writes',
        );
        const signIn = await server.api('POST', '/api/session', {
          body: { email, password: PASSWORD },
          headers: { origin: 'http://evil.example' },
        });
        assert.equal(signIn.status, 403, 'no signing a browser in from another site');
        assert.equal((await write({ 'sec-fetch-site': 'same-origin' })).status, 200);
      });

      it('signs out by clearing the cookie, and the old cookie no longer works', async () => {
        const { email } = await signUpPatient(server);
        const cookie = cookieOf(
          await server.api('POST', '/api/session', { body: { email, password: PASSWORD }, headers: sameOrigin() }),
        );
        const out = await server.api('POST', '/api/logout', { headers: { cookie, ...sameOrigin() } });
        assert.equal(out.status, 200);
        assert.match(out.headers.get('set-cookie') ?? '', /^medora_session=; .*Max-Age=0/);
        assert.equal((await server.api('GET', '/api/user', { headers: { cookie } })).status, 401);
      });
    });

    describe('passwords', () => {
      it('refuses a common password and a short one, naming the field, and keeps spaces as typed', async () => {
        const common = await server.api('POST', '/api/patients/register', {
          body: {
            name: 'A',
            email: uniqueEmail(),
            password: 'password1',
            phone: '1',
            birthdate: '1990-01-01',
            gender: 'male',
          },
        });
        assert.equal(common.status, 422);
        assert.match(common.body.errors.password[0], /common/);
        const short = await server.api('POST', '/api/patients/register', {
          body: {
            name: 'A',
            email: uniqueEmail(),
            password: 'Xy7!q',
            phone: '1',
            birthdate: '1990-01-01',
            gender: 'male',
          },
        });
        assert.match(short.body.errors.password[0], /at least 8/);
      });

      it('changes the password with the current one; every other session ends and this one goes on with a new token', async () => {
        const { email } = await signUpPatient(server);
        const here = (await signIn(server, email)).token;
        const elsewhere = (await signIn(server, email)).token;
        const wrong = await server.api('PUT', '/api/user/password', {
          token: here,
          body: { current_password: 'not it at all', new_password: 'a brand new secret' },
        });
        assert.equal(wrong.status, 422);
        assert.ok(wrong.body.errors.current_password);
        const changed = await server.api('PUT', '/api/user/password', {
          token: here,
          body: { current_password: PASSWORD, new_password: 'a brand new secret' },
        });
        assert.equal(changed.status, 200, JSON.stringify(changed.body));
        assert.equal((await userOf(elsewhere)).status, 401, 'the other session ended');
        assert.equal((await userOf(here)).status, 401, 'the old token of this session too');
        assert.equal((await userOf(changed.body.token)).status, 200, 'this device goes on with its new token');
        assert.equal((await signIn(server, email, 'a brand new secret')).user.email, email);
      });

      it("ends a doctor's sessions when an admin gives them a new password", async () => {
        const doctor = await newDoctor();
        const session = (await signIn(server, doctor.email)).token;
        const put = await server.api('PUT', `/api/admin/doctors/${doctor.id}`, {
          token: admin,
          body: { password: 'set by the admin now' },
        });
        assert.equal(put.status, 200);
        assert.equal((await userOf(session)).status, 401);
      });

      it('changes the sign-in e-mail only with the current password', async () => {
        const { token, email } = await signUpPatient(server);
        const profile = {
          name: 'Pat Tester',
          email: uniqueEmail('moved'),
          phone: '+1 555 0101',
          birthdate: '1990-05-17',
          gender: 'female',
        };
        const without = await server.api('PUT', '/api/patient/profile', { token, body: profile });
        assert.equal(without.status, 422);
        assert.deepEqual(without.body.errors, { current_password: ['is required'] });
        const wrong = await server.api('PUT', '/api/patient/profile', {
          token,
          body: { ...profile, current_password: 'guess guess' },
        });
        assert.equal(wrong.status, 422);
        const sameEmail = await server.api('PUT', '/api/patient/profile', {
          token,
          body: { ...profile, email: email.toUpperCase(), phone: '+1 555 0102' },
        });
        assert.equal(sameEmail.status, 200, 'other fields need no password');
        const moved = await server.api('PUT', '/api/patient/profile', {
          token,
          body: { ...profile, current_password: PASSWORD },
        });
        assert.equal(moved.status, 200);
        assert.equal(moved.body.user.email, profile.email);
        const trail = await server.api('GET', '/api/admin/audit', { token: admin });
        assert.ok(trail.body.entries.some((e: { action: string }) => e.action === 'email_changed'));
      });
    });

    describe('staff reset links', () => {
      it('sets a new password once, ends every session, and never shows the admin the password', async () => {
        const { email, token } = await signUpPatient(server);
        const link = await server.api('POST', '/api/admin/password-resets', { token: admin, body: { email } });
        assert.equal(link.status, 201);
        assert.deepEqual(Object.keys(link.body).sort(), ['expires_at', 'token', 'url', 'user']);
        assert.match(link.body.url, /\/reset-password#token=/);
        const minutes = (Date.parse(link.body.expires_at) - Date.now()) / 60_000;
        assert.ok(minutes > 29 && minutes <= 30, `${minutes} minutes`);

        const used = await server.api('POST', '/api/password-reset', {
          body: { token: link.body.token, password: 'chosen by the patient' },
        });
        assert.equal(used.status, 200);
        assert.equal((await userOf(token)).status, 401, 'the old session ended');
        assert.ok(await signIn(server, email, 'chosen by the patient'));
        const again = await server.api('POST', '/api/password-reset', {
          body: { token: link.body.token, password: 'and once more please' },
        });
        assert.equal(again.status, 422);
        assert.equal(again.body.code, 'reset_link_invalid');
      });

      it('voids the earlier link when a new one is made, and refuses non-admins', async () => {
        const { email, token } = await signUpPatient(server);
        const first = await server.api('POST', '/api/admin/password-resets', { token: admin, body: { email } });
        await server.api('POST', '/api/admin/password-resets', { token: admin, body: { email } });
        assert.equal(
          (
            await server.api('POST', '/api/password-reset', {
              body: { token: first.body.token, password: 'chosen by the patient' },
            })
          ).status,
          422,
        );
        assert.equal((await server.api('POST', '/api/admin/password-resets', { token, body: { email } })).status, 403);
        assert.equal(
          (
            await server.api('POST', '/api/admin/password-resets', {
              token: admin,
              body: { email: uniqueEmail('nobody') },
            })
          ).status,
          404,
        );
      });
    });

    describe('two-step sign-in', () => {
      async function enrolled(email: string) {
        const token = (await signIn(server, email)).token;
        const setup = await server.api('POST', '/api/user/mfa', { token });
        assert.equal(setup.status, 200);
        assert.match(setup.body.otpauth_uri, /^otpauth:\/\/totp\//);
        assert.match(setup.body.qr_svg, /^<svg/);
        const bad = await server.api('POST', '/api/user/mfa/confirm', { token, body: { code: '000000' } });
        assert.equal(bad.status, 422);
        const confirmed = await server.api('POST', '/api/user/mfa/confirm', {
          token,
          body: { code: codeFor(setup.body.secret) },
        });
        assert.equal(confirmed.status, 200);
        assert.equal(confirmed.body.recovery_codes.length, 10);
        return { secret: setup.body.secret as string, recoveryCodes: confirmed.body.recovery_codes as string[] };
      }

      it('asks an enrolled doctor for a code after the password; a code works once, a recovery code once', async () => {
        const doctor = await newDoctor();
        const { secret, recoveryCodes } = await enrolled(doctor.email);
        const first = await server.api('POST', '/api/login', { body: { email: doctor.email, password: PASSWORD } });
        assert.deepEqual(Object.keys(first.body).sort(), ['challenge', 'mfa']);
        assert.equal(first.body.mfa, 'verify');
        assert.equal(first.body.token, undefined, 'no session before the second factor');

        const code = codeFor(secret, 1);
        const done = await server.api('POST', '/api/login/mfa', { body: { challenge: first.body.challenge, code } });
        assert.equal(done.status, 200, JSON.stringify(done.body));
        assert.equal((await userOf(done.body.token)).status, 200);
        const reused = await server.api('POST', '/api/login/mfa', { body: { challenge: first.body.challenge, code } });
        assert.equal(reused.status, 401, 'a challenge opens one session');

        const second = await server.api('POST', '/api/login', { body: { email: doctor.email, password: PASSWORD } });
        const replay = await server.api('POST', '/api/login/mfa', { body: { challenge: second.body.challenge, code } });
        assert.equal(replay.status, 422, 'a code is accepted once');
        const recovery = (recoveryCodes[0] ?? '').toUpperCase();
        assert.equal(
          (
            await server.api('POST', '/api/login/mfa', {
              body: { challenge: second.body.challenge, recovery_code: recovery },
            })
          ).status,
          200,
        );
        const third = await server.api('POST', '/api/login', { body: { email: doctor.email, password: PASSWORD } });
        assert.equal(
          (
            await server.api('POST', '/api/login/mfa', {
              body: { challenge: third.body.challenge, recovery_code: recovery },
            })
          ).status,
          422,
        );
        const status = await server.api('GET', '/api/user/mfa', { token: done.body.token });
        assert.equal(status.body.recovery_codes_left, 9);
      });

      it("lets an admin reset a doctor's authenticator, audited; patients cannot enrol", async () => {
        const doctor = await newDoctor();
        await enrolled(doctor.email);
        const reset = await server.api('POST', '/api/admin/mfa-resets', {
          token: admin,
          body: { email: doctor.email },
        });
        assert.equal(reset.status, 200);
        const login = await server.api('POST', '/api/login', { body: { email: doctor.email, password: PASSWORD } });
        assert.ok(login.body.token, 'the password alone again');
        const patient = await signUpPatient(server);
        assert.equal((await server.api('POST', '/api/user/mfa', { token: patient.token })).status, 403);
        const trail = await server.api('GET', '/api/admin/audit', { token: admin });
        assert.ok(trail.body.entries.some((e: { action: string }) => e.action === 'mfa_reset'));
      });
    });

    describe('REQUIRE_MFA', () => {
      let strict: TestServer;
      before(async () => {
        strict = await startTestServer(target, { requireMfa: ['admin'] });
      });
      after(() => strict.close());

      it('makes an admin without an authenticator set one up at sign-in before any session opens', async () => {
        const email = uniqueEmail('admin');
        await strict.app.auth.createAdmin({ name: 'Strict Admin', email, password: PASSWORD });
        const first = await strict.api('POST', '/api/login', { body: { email, password: PASSWORD } });
        assert.equal(first.body.mfa, 'enrol');
        const setup = await strict.api('POST', '/api/login/mfa/setup', { body: { challenge: first.body.challenge } });
        assert.equal(setup.status, 200);
        const done = await strict.api('POST', '/api/login/mfa', {
          body: { challenge: first.body.challenge, code: codeFor(setup.body.secret) },
        });
        assert.equal(done.status, 200, JSON.stringify(done.body));
        assert.equal(done.body.recovery_codes.length, 10);
        const off = await strict.api('POST', '/api/user/mfa/disable', {
          token: done.body.token,
          body: { password: PASSWORD },
        });
        assert.equal(off.status, 409, 'required for the role');
        const next = await strict.api('POST', '/api/login', { body: { email, password: PASSWORD } });
        assert.equal(next.body.mfa, 'verify');
      });
    });
  });
}
