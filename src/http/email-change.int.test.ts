import { after, before, beforeEach, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import type { ParsedMail } from 'mailparser';
import { outboxQueue } from '../db/outbox.pg.ts';
import { systemClock } from '../domain/shared/clock.ts';
import { messageLink } from '../mail/start.ts';
import { smtpTransport } from '../mail/smtp.ts';
import { startOutboxWorker, type OutboxWorker } from '../mail/worker.ts';
import { only, present } from '../testing/assert.ts';
import {
  PASSWORD,
  signIn,
  signUpAdmin,
  signUpPatient,
  startTestServer,
  uniqueEmail,
  type TestServer,
} from '../testing/http.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';
import { testDatabases } from '../testing/test-db.ts';

/** Where the attacker's requests come from, and the patient's own: each a client address of its own. */
const ATTACKER_IP = { 'x-forwarded-for': '203.0.113.66' };
const PATIENT_IP = { 'x-forwarded-for': '198.51.100.7' };

for (const target of testDatabases('one')) {
  describe(`sign-in e-mails the desk enters, end to end through a real SMTP server, on ${target.name}`, () => {
    let server: TestServer;
    let smtp: TestSmtp;
    let worker: OutboxWorker;
    let desk: string;

    before(async () => {
      server = await startTestServer(target);
      smtp = await startTestSmtp();
      worker = startOutboxWorker(
        {
          queue: outboxQueue(server.db),
          transport: smtpTransport(smtp.url),
          clock: systemClock,
          from: '"Medora Test Clinic" <desk@clinic.test>',
          linkFor: (kind, token) => messageLink('https://clinic.test', kind, token),
          pollMs: 1000,
          leaseMs: 60_000,
        },
        { poll: false },
      );
      const admin = await signUpAdmin(server);
      const email = uniqueEmail('reception');
      const made = await server.api('POST', '/api/admin/receptionists', {
        token: admin.token,
        body: { name: 'Rita Reception', email, password: PASSWORD },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      desk = (await signIn(server, email)).token;
    });
    after(async () => {
      await worker?.stop();
      await smtp?.close();
      await server?.close();
    });
    beforeEach(async () => {
      await deliver();
      smtp.received.length = 0;
    });

    /** Sends everything due, as the server's worker would. */
    const deliver = async () => {
      while ((await worker.runOnce()) > 0);
    };
    const mailTo = (address: string): ParsedMail[] =>
      smtp.received.filter((m) =>
        (m.to && !Array.isArray(m.to) ? m.to.value : []).some(
          (to) => to.address?.toLowerCase() === address.toLowerCase(),
        ),
      );
    const linkIn = (mail: ParsedMail): string =>
      decodeURIComponent(present(/#token=([\w%-]+)/.exec(mail.text ?? '')?.[1], `a link in "${mail.subject}"`));
    const subjectsTo = (address: string) => mailTo(address).map((m) => m.subject ?? '');

    /** A self-registered patient whose own messages have gone out. */
    async function patient(name = 'Paula Victim') {
      const signedUp = await signUpPatient(server, { name });
      const [row] = await server.db.query<{ id: number }>('select id from patients where user_id = $1', [
        signedUp.user.id,
      ]);
      await deliver();
      smtp.received.length = 0;
      return { ...signedUp, patientId: present(row).id };
    }

    const deskEnters = (patientId: number, email: string) =>
      server.api('PUT', `/api/patients/${patientId}`, { token: desk, body: { email } });
    const forgot = (email: string, headers: Record<string, string>) =>
      server.api('POST', '/api/password-reset-requests', { body: { email }, headers });
    const confirm = (body: { token: string; password?: string }, headers = PATIENT_IP) =>
      server.api('POST', '/api/email-verification', { body, headers });

    it("fails to take a patient's account over: reception enters the attacker's address, and no reset link ever reaches it", async () => {
      const victim = await patient();
      const attacker = uniqueEmail('attacker');
      const entered = await deskEnters(victim.patientId, attacker);
      assert.equal(entered.status, 200, JSON.stringify(entered.body));
      assert.deepEqual([entered.body.patient.email, entered.body.patient.pending_email], [victim.email, attacker]);

      for (const email of [attacker, victim.email]) assert.equal((await forgot(email, ATTACKER_IP)).status, 202);
      await deliver();
      assert.deepEqual(
        subjectsTo(attacker),
        ['Confirm your e-mail address for Medora Test Clinic'],
        'its confirmation and nothing else',
      );
      const notice = only(mailTo(victim.email).filter((m) => /new sign-in e-mail was entered/.test(m.subject ?? '')));
      assert.match(notice.text ?? '', new RegExp(`${attacker.replace(/[.]/g, '\\.')} as the new sign-in e-mail`));
      assert.equal(
        mailTo(victim.email).filter((m) => /^Choose a new password/.test(m.subject ?? '')).length,
        1,
        "the reset link went to the patient's own address",
      );

      const token = linkIn(only(mailTo(attacker)));
      const preview = await server.api('POST', '/api/email-verification/preview', { body: { token } });
      assert.deepEqual(preview.body, { email: attacker, purpose: 'change' });
      const withoutPassword = await confirm({ token }, ATTACKER_IP);
      assert.deepEqual([withoutPassword.status, withoutPassword.body.code], [422, 'password_required']);
      const guessed = await confirm({ token, password: 'a likely password' }, ATTACKER_IP);
      assert.equal(guessed.status, 422);
      assert.ok(guessed.body.errors.password);

      assert.equal(
        (
          await server.api('POST', '/api/login', {
            body: { email: attacker, password: PASSWORD },
            headers: ATTACKER_IP,
          })
        ).status,
        401,
      );
      const still = await signIn(server, victim.email);
      assert.equal(
        (await server.api('GET', '/api/patient/records', { token: still.token })).status,
        200,
        'the patient still signs in with the old address',
      );
      const audit = await server.db.query<{ action: string }>(
        `select action from audit_log where patient_id = $1 and action like 'email_change%'`,
        [victim.patientId],
      );
      assert.deepEqual(
        audit.map((a) => a.action),
        ['email_change_requested'],
      );
    });

    it('makes the new address the sign-in once the patient confirms it with their password, and resets go there from then on', async () => {
      const paula = await patient('Paula Moving');
      const moved = uniqueEmail('paula.moved');
      assert.equal((await deskEnters(paula.patientId, moved)).status, 200);
      await deliver();
      const token = linkIn(only(mailTo(moved)));

      const confirmed = await confirm({ token, password: PASSWORD });
      assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
      assert.deepEqual(confirmed.body, { email: moved });
      assert.equal(
        (await confirm({ token, password: PASSWORD })).body.code,
        'verification_link_invalid',
        'the link works once',
      );
      assert.equal(
        (await server.api('POST', '/api/login', { body: { email: paula.email, password: PASSWORD } })).status,
        401,
        'the old address no longer signs in',
      );
      const signedIn = await signIn(server, moved);
      const profile = await server.api('GET', '/api/patient/profile', { token: signedIn.token });
      assert.deepEqual(
        [profile.body.patient.email, profile.body.patient.email_verified, profile.body.patient.pending_email],
        [moved, true, null],
      );

      smtp.received.length = 0;
      assert.equal((await forgot(moved, PATIENT_IP)).status, 202);
      await deliver();
      const reset = await server.api('POST', '/api/password-reset', {
        body: { token: linkIn(only(mailTo(moved))), password: 'paula picked a new one' },
      });
      assert.equal(reset.status, 200);
      assert.ok(await signIn(server, moved, 'paula picked a new one'));
    });

    it('registers a walk-in whose address waits for its link, which alone confirms it, since there is no sign-in to protect', async () => {
      const email = uniqueEmail('walk-in');
      const registered = await server.api('POST', '/api/patients', {
        token: desk,
        body: { name: 'Walter Walk-in', email, phone: '+1 555 0177', birthdate: '1961-02-14', gender: 'male' },
      });
      assert.equal(registered.status, 201, JSON.stringify(registered.body));
      assert.deepEqual([registered.body.patient.email, registered.body.patient.pending_email], [null, email]);
      assert.equal((await forgot(email, PATIENT_IP)).status, 202);
      await deliver();
      const mail = only(mailTo(email));
      assert.match(mail.text ?? '', /choose a password through "Forgot password"/);

      const token = linkIn(mail);
      assert.deepEqual((await server.api('POST', '/api/email-verification/preview', { body: { token } })).body, {
        email,
        purpose: 'first',
      });
      assert.deepEqual((await confirm({ token })).body, { email });
      const card = await server.api('GET', `/api/patients/${registered.body.patient.id}`, { token: desk });
      assert.deepEqual([card.body.patient.email, card.body.patient.pending_email], [email, null]);
      assert.equal((await forgot(email, PATIENT_IP)).status, 202);
      await deliver();
      assert.match(subjectsTo(email).at(-1) ?? '', /^Choose a new password/, 'now the walk-in can choose a password');
    });

    it('refuses a walk-in or a change to an address another account signs in with', async () => {
      const someone = await patient('Sam Someone');
      const walkIn = await server.api('POST', '/api/patients', {
        token: desk,
        body: {
          name: 'Copy Cat',
          email: someone.email.toUpperCase(),
          phone: '1',
          birthdate: '1970-01-01',
          gender: 'male',
        },
      });
      assert.deepEqual([walkIn.status, walkIn.body.code], [409, 'email_taken']);
      const other = await patient('Olga Other');
      const change = await deskEnters(other.patientId, someone.email);
      assert.deepEqual([change.status, change.body.code], [409, 'email_taken']);
    });

    it('answers a sign-up with a registered address exactly as a new one, and tells the owner instead', async () => {
      const owner = await patient('Olive Owner');
      const fresh = uniqueEmail('fresh');
      const register = (email: string) =>
        server.api('POST', '/api/patients/register', {
          body: {
            name: 'Someone Else',
            email,
            password: 'someone else chose this',
            phone: '1',
            birthdate: '1980-01-01',
            gender: 'other',
          },
          headers: ATTACKER_IP,
        });
      const taken = await register(owner.email);
      const created = await register(fresh);
      assert.deepEqual([taken.status, created.status], [202, 202]);
      assert.equal(taken.body.message.replace(owner.email, 'X'), created.body.message.replace(fresh, 'X'));
      await deliver();
      assert.deepEqual(subjectsTo(owner.email), ['Someone tried to register with your address at Medora Test Clinic']);
      assert.deepEqual(subjectsTo(fresh), ['Confirm your e-mail address for Medora Test Clinic']);
      assert.ok(await signIn(server, owner.email), "the owner's password is unchanged");
    });

    it("keeps forgot-password from a stranger's address away from the owner's: the owner still gets their link", async () => {
      const owner = await patient('Fran Forgetful');
      for (let i = 0; i < 3; i++) assert.equal((await forgot(owner.email, ATTACKER_IP)).status, 202);
      const refused = await forgot(owner.email, ATTACKER_IP);
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      await deliver();
      smtp.received.length = 0;
      assert.equal((await forgot(owner.email, PATIENT_IP)).status, 202);
      await deliver();
      const reset = await server.api('POST', '/api/password-reset', {
        body: { token: linkIn(only(mailTo(owner.email))), password: 'fran remembers now' },
      });
      assert.equal(reset.status, 200);
    });
  });
}
