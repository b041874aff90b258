import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from '../../testing/node-test.ts';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import {
  CLINIC_NOW,
  openPage,
  openSignedInPage,
  PASSWORD,
  serverAndBrowserPerSuite,
  signInThroughUi,
  uniqueEmail,
  type TestServer,
} from './harness.ts';
import { createReceptionist, registerPatient, seedClinic, type Account, type Clinic } from './seed.ts';
import { outboxQueue } from '../../db/outbox.pg.ts';
import { messageLink } from '../../mail/start.ts';
import { smtpTransport } from '../../mail/smtp.ts';
import { startOutboxWorker } from '../../mail/worker.ts';
import { startTestSmtp } from '../../testing/smtp.ts';

/** What an authenticator app shows at the server's clock (the suite's fixed "now"), `steps` periods later. */
const codeAt = (secret: string, steps: number) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.parse(CLINIC_NOW) + steps * 30_000 });

describe('accounts in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
  });

  const storedValues = (page: Page) =>
    page.evaluate(() => [...Object.values({ ...localStorage }), ...Object.values({ ...sessionStorage })].join('\n'));

  it('signs in with an HttpOnly cookie and leaves no token in localStorage or sessionStorage', async () => {
    const patient = await registerPatient(server, 'Cora Cookie');
    const { page } = await openPage(browser, server.url);
    await signInThroughUi(page, patient.email);
    const [cookie] = await page.context().cookies();
    assert.equal(cookie?.name, 'medora_session');
    assert.equal(cookie?.httpOnly, true);
    assert.equal(cookie?.sameSite, 'Lax');
    assert.equal(cookie?.expires, -1, 'a browser-session cookie without Remember me');
    assert.equal(await page.evaluate(() => document.cookie), '', 'scripts cannot read it');
    const stored = await storedValues(page);
    assert.ok(!stored.includes(cookie?.value ?? '<none>'), 'the token is nowhere in web storage');
    assert.doesNotMatch(stored, /[\w-]{40,}/, 'nothing token-like is stored');
  });

  it('refuses a cross-site form POST that carries the cookie', async () => {
    const patient = await registerPatient(server, 'Cross Site');
    const { page } = await openSignedInPage(browser, server, patient.email);
    // Another origin of the same site (127.0.0.1, another port): the browser sends the Lax cookie along.
    const attacker: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<form method="post" action="${server.url}/api/logout/everywhere"><button>Win a prize</button></form>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    try {
      await page.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
      const [answer] = await Promise.all([
        page.waitForResponse(`${server.url}/api/logout/everywhere`),
        page.getByRole('button', { name: 'Win a prize' }).click(),
      ]);
      assert.equal(answer.status(), 403);
      assert.equal((await answer.json()).code, 'cross_site_request');
      await page.goto('/user/patient');
      await page.locator('.shell-main h1').waitFor();
      assert.equal(new URL(page.url()).pathname, '/user/patient', 'still signed in');
    } finally {
      attacker.close();
    }
  });

  it('sets up two-step sign-in, then signs in with a code and with a recovery code', async () => {
    const { page } = await openSignedInPage(browser, server, clinic.doctor.email);
    await page.getByRole('link', { name: 'Sign-in & Security' }).click();
    await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = ((await page.locator('.mfa-secret').textContent()) ?? '').replace(/\s/g, '');
    await page.getByLabel('Code from your authenticator').fill(codeAt(secret, 0));
    await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
    const recoveryCodes = page.getByRole('list', { name: 'Recovery codes' }).locator('code');
    // The codes come with the answer to "Turn on": wait for them before counting.
    await recoveryCodes.last().waitFor();
    const codes = await recoveryCodes.allTextContents();
    assert.equal(codes.length, 10);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('10 of 10 recovery codes left').waitFor();

    const withCode = await signInUpToCode(clinic.doctor);
    await withCode.getByLabel('Code from your authenticator').fill(codeAt(secret, 1));
    await withCode.getByRole('button', { name: 'Verify' }).click();
    await withCode.waitForURL('**/user/doctor/agenda');

    const withRecovery = await signInUpToCode(clinic.doctor);
    await withRecovery.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await withRecovery.getByLabel('Recovery code').fill(codes[0] ?? '');
    await withRecovery.getByRole('button', { name: 'Verify' }).click();
    await withRecovery.waitForURL('**/user/doctor/agenda');
  });

  async function signInUpToCode(account: Account): Promise<Page> {
    const { page } = await openPage(browser, server.url);
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
    return page;
  }

  /** A real SMTP server, and a mail worker sending the outbox's messages to it as `medora serve` does. */
  const mailing = async () => {
    const smtp = await startTestSmtp();
    const worker = startOutboxWorker({
      queue: outboxQueue(server.db),
      transport: smtpTransport(smtp.url),
      clock: server.app.clock,
      from: 'desk@clinic.test',
      linkFor: (kind, token) => messageLink(server.url, kind, token),
      pollMs: 50,
      leaseMs: 60_000,
    });
    return {
      smtp,
      stop: async () => {
        await worker.stop();
        await smtp.close();
      },
    };
  };

  it('resets a forgotten password through the e-mailed link', async () => {
    const patient = await registerPatient(server, 'Fiona Forgot');
    const { smtp, stop } = await mailing();
    try {
      const { page } = await openPage(browser, server.url);
      await page.goto('/login');
      await page.getByRole('link', { name: 'Forgot Password?' }).click();
      await page.getByLabel('Email').fill(patient.email);
      await page.getByRole('button', { name: 'Send me a link' }).click();
      await page.getByText('If an account uses this address, we have sent it a link').waitFor();
      const reset = await smtp.waitForMessage(
        (m) => m.subject?.startsWith('Choose a new password') === true && JSON.stringify(m.to).includes(patient.email),
      );
      const link = /https?:\/\/\S+\/reset-password#token=\S+/.exec(reset?.text ?? '')?.[0];
      assert.ok(link, reset?.text);
      await page.goto(link);
      await page.getByLabel('New password', { exact: true }).fill('fiona remembers this');
      await page.getByLabel('Repeat the new password').fill('fiona remembers this');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.getByText('Your new password is set. Sign in with it.').waitFor();
      await signInThroughUi(page, patient.email, 'fiona remembers this');
    } finally {
      await stop();
    }
  });

  it('takes a sign-in e-mail the desk entered only once the patient confirms it with their password', async () => {
    const patient = await registerPatient(server, 'Mona Moving');
    const reception = await createReceptionist(server, clinic.admin);
    const found = await server.api('GET', `/api/patients?q=${encodeURIComponent(patient.email)}`, {
      token: reception.token,
    });
    const moved = uniqueEmail('mona.moved');
    const { smtp, stop } = await mailing();
    try {
      const { page: desk } = await openSignedInPage(browser, server, reception.email);
      await desk.goto(`/user/reception/patients/${found.body.patients[0].id}`);
      await desk.getByRole('button', { name: 'Edit details', exact: true }).click();
      const dialog = desk.getByRole('dialog', { name: 'Edit Mona Moving' });
      await dialog.getByLabel('Email').fill(moved);
      await dialog.getByRole('button', { name: 'Save details' }).click();
      await desk
        .getByRole('alert')
        .getByText(
          `A verification was sent to ${moved}; the old address ${patient.email} stays in use until the patient confirms it with their password.`,
        )
        .waitFor();
      await desk
        .locator('.details')
        .getByText(`${moved}: waiting for the patient to confirm it; the address above stays in use until then`)
        .waitFor();
      await smtp.waitForMessage(
        (m) => /new sign-in e-mail was entered/.test(m.subject ?? '') && JSON.stringify(m.to).includes(patient.email),
      );

      const mail = await smtp.waitForMessage(
        (m) => m.subject?.startsWith('Confirm your e-mail address') === true && JSON.stringify(m.to).includes(moved),
      );
      const link = /https?:\/\/\S+\/verify-email#token=\S+/.exec(mail.text ?? '')?.[0];
      assert.ok(link, mail.text);
      const { page } = await openPage(browser, server.url);
      await page.goto(link);
      await page.getByText(`The clinic entered ${moved} as your new sign-in e-mail.`).waitFor();
      await page.getByLabel('Password').fill('not the password at all');
      await page.getByRole('button', { name: 'Confirm new e-mail' }).click();
      await page.locator('.field-error').getByText('Password is wrong').waitFor();
      assert.equal(
        (await server.api('POST', '/api/login', { body: { email: moved, password: PASSWORD } })).status,
        401,
        'nothing changed yet',
      );
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Confirm new e-mail' }).click();
      await page.getByText(`Thank you: ${moved} is now your sign-in e-mail. Sign in with it from now on.`).waitFor();
      await signInThroughUi(page, moved);
    } finally {
      await stop();
    }
  });

  it("gives an admin a reset link that sets the patient's new password", async () => {
    const patient = await registerPatient(server, 'Rhea Reset');
    const patients = await server.api('GET', `/api/admin/patients?q=${encodeURIComponent(patient.email)}`, {
      token: clinic.admin.token,
    });
    const { page } = await openSignedInPage(browser, server, clinic.admin.email);
    await page.goto(`/user/admin/patient/profile/${patients.body.patients[0].id}`);
    await page.getByRole('button', { name: 'Sign-in help for Rhea Reset' }).click();
    await page.getByRole('button', { name: 'Make a password reset link' }).click();
    const link = await page.getByLabel('Reset link').inputValue();
    assert.match(link, /\/reset-password#token=/);

    const { page: patientPage } = await openPage(browser, server.url);
    await patientPage.goto(link);
    await patientPage.getByLabel('New password', { exact: true }).fill('rhea chose this herself');
    await patientPage.getByLabel('Repeat the new password').fill('rhea chose this herself');
    await patientPage.getByRole('button', { name: 'Set password' }).click();
    await patientPage.getByText('Your new password is set. Sign in with it.').waitFor();
    await signInThroughUi(patientPage, patient.email, 'rhea chose this herself');
    assert.equal(
      (await server.api('POST', '/api/login', { body: { email: patient.email, password: PASSWORD } })).status,
      401,
      'the old password is gone',
    );
    assert.equal(
      (await server.api('GET', '/api/user', { token: patient.token })).status,
      401,
      'and the old session with it',
    );
  });
});
