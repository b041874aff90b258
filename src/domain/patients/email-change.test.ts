import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { rejects } from '../../testing/assert.ts';
import type { Actor } from '../shared/actor.ts';
import { conflict } from '../shared/errors.ts';
import { fakeAuthDeps, movableClock } from '../../testing/auth-fakes.ts';
import { at, only, present } from '../../testing/assert.ts';
import { confirmPassword, requestPasswordReset } from '../auth/password-use-cases.ts';
import { login, register } from '../auth/use-cases.ts';
import { previewVerification, verifyEmail } from '../auth/confirm-email-use-cases.ts';
import type { PatientDirectory, PatientsDeps, PatientsStores } from './ports.ts';
import { updateMyProfile, updatePatient } from './use-cases.ts';

const desk: Actor = { userId: 900, role: 'reception', name: 'Rita Reception', requestId: 'desk-1' };
const patientClient = { ip: '10.0.0.1' };
const strangerClient = { ip: '10.66.6.6' };
const PASSWORD = 'paula knows this';
const OLD = 'paula@example.test';
const ATTACKER = 'attacker@evil.test';

/** The auth fakes with a patient directory over the same users: the desk's edits and the sign-in see one account. */
async function clinic() {
  const clock = movableClock('2026-11-24T09:00:00Z');
  const auth = fakeAuthDeps(clock);
  await register(auth.deps, {
    name: 'Paula Patient',
    email: OLD,
    password: PASSWORD,
    phone: '+1 555 0100',
    birthdate: '1988-04-12',
    gender: 'female',
  });
  const paula = only(auth.users);
  const patientId = present(paula.patientId);
  const profile = { phone: '+1 555 0100', birthdate: '1988-04-12', gender: 'female' as const, reminders: true };
  const patients: PatientDirectory = {
    list: async () => assert.fail('not used'),
    card: async () => assert.fail('not used'),
    possibleDuplicates: async () => assert.fail('not used'),
    find: async (id) =>
      id === patientId
        ? {
            id,
            userId: paula.id,
            name: paula.name,
            email: paula.email,
            photoId: null,
            description: '',
            ...profile,
            profileImageId: null,
            emailVerified: auth.verified.has(paula.id),
            pendingEmail: auth.pending.get(paula.id) ?? null,
          }
        : undefined,
    update: async (_id, fields) => {
      if (present(fields.email).toLowerCase() !== paula.email.toLowerCase()) {
        paula.email = present(fields.email);
        auth.verified.delete(paula.id);
        auth.pending.delete(paula.id);
      }
      paula.name = fields.name;
    },
    requestEmailChange: async (_id, email) => {
      if (auth.users.some((u) => u.email.toLowerCase() === email.toLowerCase()))
        throw conflict('email_taken', 'This email is already registered');
      auth.pending.set(paula.id, email);
    },
  };
  const stores: PatientsStores = {
    patients,
    visits: { listForPatient: async () => [] },
    records: { listForPatient: async () => [] },
    audit: auth.deps.audit,
    hl7: auth.deps.hl7,
    outbox: auth.deps.outbox,
    links: auth.deps.links,
  };
  const patientsDeps: PatientsDeps = {
    ...stores,
    transaction: (fn) => fn(stores),
    confirmPassword: (actor, password) => confirmPassword(auth.deps, actor, password),
    clock,
    timeZone: 'Europe/Berlin',
    clinic: auth.deps.clinic,
  };
  auth.messages.length = 0;
  /** The link token of the newest message of `kind` to `to`, minted as the mail worker mints it when it sends the message. */
  const tokenTo = (to: string, kind = 'email_verification') =>
    present(auth.mintLink(present([...auth.messages].reverse().find((m) => m.to === to && m.kind === kind))));
  const deskChanges = (email: string) => updatePatient(patientsDeps, patientId, { email }, desk);
  return { auth, paula, patientId, patientsDeps, tokenTo, deskChanges };
}

describe("the desk changing a patient's sign-in e-mail", () => {
  it('keeps the address in use, tells it, and sends the new one its confirmation and nothing else', async () => {
    const { auth, paula, deskChanges } = await clinic();
    const { patient } = await deskChanges(ATTACKER);
    assert.deepEqual([patient.email, patient.pending_email], [OLD, ATTACKER]);
    assert.equal(paula.email, OLD, 'the sign-in address stays');
    assert.deepEqual(
      auth.messages.map((m) => [m.kind, m.to]),
      [
        ['email_change_notice', OLD],
        ['email_verification', ATTACKER],
      ],
    );
    assert.match(
      at(auth.messages, 0).text,
      /attacker@evil\.test .*Nothing changes until it is confirmed with your password/s,
    );
    assert.match(at(auth.messages, 1).text, /confirm it with your Medora password/);
    const requested = only(auth.audit.filter((e) => e.action === 'email_change_requested'));
    assert.deepEqual([requested.actor?.role, requested.details], ['reception', { from: OLD, to: ATTACKER }]);

    await requestPasswordReset(auth.deps, { email: ATTACKER }, strangerClient);
    assert.equal(
      auth.messages.filter((m) => m.kind === 'password_reset').length,
      0,
      'no reset link to the address the desk entered',
    );
    await rejects(login(auth.deps, { email: ATTACKER, password: PASSWORD }, strangerClient), 'unauthenticated');
    assert.ok(
      await login(auth.deps, { email: OLD, password: PASSWORD }, patientClient),
      'the patient signs in as before',
    );
  });

  it("takes the new address only with the account's password, and the link then works once", async () => {
    const { auth, paula, tokenTo, deskChanges } = await clinic();
    await deskChanges('paula.new@example.test');
    const token = tokenTo('paula.new@example.test');
    assert.deepEqual(await previewVerification(auth.deps, { token }), {
      email: 'paula.new@example.test',
      purpose: 'change',
    });
    const missing = await rejects(verifyEmail(auth.deps, { token }, strangerClient), 'invalid', 'password_required');
    assert.deepEqual(missing.fields, { password: ['is required'] });
    const wrong = await rejects(verifyEmail(auth.deps, { token, password: 'a good guess' }, strangerClient), 'invalid');
    assert.ok(wrong.fields?.password);
    assert.equal(paula.email, OLD, 'neither refusal used the link or changed the address');

    assert.deepEqual(await verifyEmail(auth.deps, { token, password: PASSWORD }, patientClient), {
      email: 'paula.new@example.test',
    });
    assert.equal(paula.email, 'paula.new@example.test');
    assert.ok(auth.verified.has(paula.id));
    assert.equal(auth.pending.has(paula.id), false);
    const changed = only(auth.audit.filter((e) => e.action === 'email_changed'));
    assert.deepEqual(
      [changed.actor?.userId, changed.details],
      [paula.id, { from: OLD, to: 'paula.new@example.test', confirmed_by: 'link' }],
    );
    await rejects(
      verifyEmail(auth.deps, { token, password: PASSWORD }, patientClient),
      'invalid',
      'verification_link_invalid',
    );

    await requestPasswordReset(auth.deps, { email: 'paula.new@example.test' }, patientClient);
    assert.equal(
      only(auth.messages.filter((m) => m.kind === 'password_reset')).to,
      'paula.new@example.test',
      'now resets go there',
    );
  });

  it('slows password guesses on a confirmation link as sign-in does, without slowing the patient at home', async () => {
    const { auth, tokenTo, deskChanges } = await clinic();
    await deskChanges(ATTACKER);
    const token = tokenTo(ATTACKER);
    for (let i = 0; i < 10; i++)
      await rejects(verifyEmail(auth.deps, { token, password: `guess number ${i}` }, strangerClient), 'invalid');
    await rejects(
      verifyEmail(auth.deps, { token, password: PASSWORD }, strangerClient),
      'too_many',
      'too_many_attempts',
    );
    assert.ok(
      await login(auth.deps, { email: OLD, password: PASSWORD }, patientClient),
      'the owner from their own address is not kept out',
    );
  });

  it('voids the link of an address replaced before it was confirmed', async () => {
    const { auth, paula, tokenTo, deskChanges } = await clinic();
    await deskChanges(ATTACKER);
    const first = tokenTo(ATTACKER);
    await deskChanges('paula.new@example.test');
    await rejects(
      verifyEmail(auth.deps, { token: first, password: PASSWORD }, patientClient),
      'invalid',
      'verification_link_invalid',
    );
    await rejects(previewVerification(auth.deps, { token: first }), 'invalid', 'verification_link_invalid');
    assert.equal(paula.email, OLD);
  });

  it('drops a waiting address when the patient gives their own, which needs no second password', async () => {
    const { auth, paula, patientsDeps, tokenTo, deskChanges } = await clinic();
    await deskChanges(ATTACKER);
    const waiting = tokenTo(ATTACKER);
    const actor: Actor = { userId: paula.id, role: 'patient', name: paula.name, patientId: present(paula.patientId) };
    const mine = await updateMyProfile(
      patientsDeps,
      {
        name: paula.name,
        email: 'paula.own@example.test',
        phone: '+1 555 0100',
        birthdate: '1988-04-12',
        gender: 'female',
        current_password: PASSWORD,
      },
      actor,
    );
    assert.deepEqual([mine.patient.email, mine.patient.pending_email], ['paula.own@example.test', null]);
    await rejects(
      verifyEmail(auth.deps, { token: waiting, password: PASSWORD }, patientClient),
      'invalid',
      'verification_link_invalid',
    );
    const own = tokenTo('paula.own@example.test');
    assert.deepEqual(await previewVerification(auth.deps, { token: own }), {
      email: 'paula.own@example.test',
      purpose: 'own',
    });
    assert.deepEqual(await verifyEmail(auth.deps, { token: own }, patientClient), { email: 'paula.own@example.test' });
    assert.ok(auth.verified.has(paula.id));
  });

  it('refuses an address another account signs in with', async () => {
    const { auth, deskChanges } = await clinic();
    await auth.deps.accounts.createAdmin({ name: 'Ada', email: 'ada@example.test', passwordHash: 'hashed:x' });
    await rejects(deskChanges('ADA@example.test'), 'conflict', 'email_taken');
  });
});

describe('forgot-password requests', () => {
  it("are counted per account and address: a stranger's 429 never reaches the owner's own address", async () => {
    const { auth } = await clinic();
    for (let i = 0; i < 3; i++) await requestPasswordReset(auth.deps, { email: OLD }, strangerClient);
    await rejects(
      requestPasswordReset(auth.deps, { email: OLD.toUpperCase() }, strangerClient),
      'too_many',
      'too_many_attempts',
    );
    assert.ok(await requestPasswordReset(auth.deps, { email: OLD }, patientClient));
    assert.equal(auth.messages.filter((m) => m.kind === 'password_reset').length, 4);
    assert.equal(at(auth.messages, -1).to, OLD);
  });
});
