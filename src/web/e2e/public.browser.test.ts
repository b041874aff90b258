import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { describe, it } from '../../testing/node-test.ts';
import type { Browser } from 'playwright-core';
import { at, present } from '../../testing/assert.ts';
import {
  builtSources,
  DIST_WEB,
  openPage,
  PASSWORD,
  serverAndBrowserPerSuite,
  seriousAxeViolations,
  uniqueEmail,
  type TestServer,
} from './harness.ts';

const ENTRY_BUDGET_GZIP_BYTES = 100 * 1024;
const SIGNED_IN_SOURCES = /^src\/web\/(pages\/(admin|doctor|patient)\/|components\/app-shell)/;

describe('public pages in the browser', () => {
  let server: TestServer;
  let browser: Browser;

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
  });

  it('counts the landing counters up to 85, 18, 12 and 150 in about a second', async () => {
    const { page, problems } = await openPage(browser, server.url);
    // The counters as first drawn, and when, in the page's time: seen by the page itself, however late the test looks.
    await page.addInitScript(() => {
      const seen = window as unknown as { firstCounters?: { texts: string[]; at: number } };
      const observer = new MutationObserver(() => {
        const drawn = [...document.querySelectorAll('.counter-value')];
        if (drawn.length < 4) return;
        seen.firstCounters = { texts: drawn.map((el) => el.textContent ?? ''), at: performance.now() };
        observer.disconnect();
      });
      observer.observe(document, { childList: true, subtree: true, characterData: true });
    });
    // The page's clock then moves only when the test moves it: "a second" is the page's second, not the loaded machine's.
    await page.clock.install();
    await page.goto('/');
    const counters = page.locator('.counter-value');
    await counters.first().waitFor();
    // Stopped a moment ahead of the page's time, the moment longer if the page's time got there first.
    for (let aheadMs = 50; ; aheadMs *= 2) {
      const pageNow = await page.evaluate(() => Date.now());
      if (
        await page.clock.pauseAt(pageNow + aheadMs).then(
          () => true,
          () => aheadMs > 60_000,
        )
      )
        break;
    }
    const first = await page.evaluate(
      () => (window as unknown as { firstCounters?: { texts: string[]; at: number } }).firstCounters,
    );
    const early = (first?.texts ?? []).map(Number);
    assert.ok(at(early, 3, 'awards counter') < 150, `the awards counter starts below 150, got ${early[3]}`);

    // Up to 1.1 s of the page's time after the counters were first drawn; then only the drawing of the last frame is
    // waited for, in real time (asked from here: the page's own timers and animation frames stand still with its clock).
    const pausedAt = await page.evaluate(() => performance.now());
    const firstDrawnAt = present(first, 'the counters first drawn').at;
    await page.clock.runFor(Math.max(1, Math.ceil(firstDrawnAt + 1100 - pausedAt)));
    let shown = '';
    for (const deadline = Date.now() + 30_000; shown !== '85,18,12,150' && Date.now() < deadline; await sleep(50)) {
      shown = (await counters.allTextContents()).join();
    }
    assert.equal(shown, '85,18,12,150', "the counters finished within a second of the page's time");
    for (const label of ['Medical Experts', 'Departments', 'Research Labs', 'Awards']) {
      assert.equal(await page.getByText(label, { exact: true }).count(), 1);
    }
    assert.deepEqual(problems, []);
  });

  it('has the hero, about and services anchors, the header links and the Profile dropdown', async () => {
    const { page } = await openPage(browser, server.url);
    await page.goto('/');
    for (const id of ['hero', 'about', 'services']) await page.locator(`#${id}`).waitFor();
    for (const service of [
      'Cardiology',
      'Pharmacy',
      'Emergency Care',
      'Genetics and Diagnostics',
      'Rehabilitation',
      'Preventive Health',
    ]) {
      await page.getByRole('heading', { name: service }).waitFor();
    }
    await page.getByRole('button', { name: 'Profile' }).click();
    assert.equal(await page.getByRole('link', { name: 'Admin' }).getAttribute('href'), '/user/admin/dashboard');
    assert.equal(await page.getByRole('link', { name: 'Patient' }).getAttribute('href'), '/user/patient');
    assert.equal(await page.getByRole('link', { name: 'Doctor' }).getAttribute('href'), '/user/doctor');
    await page.keyboard.press('Escape');
    assert.equal(await page.getByRole('link', { name: 'Admin' }).isVisible(), false);

    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: 'Sign In' }).waitFor();
  });

  it('opens the navigation from the toggle on a phone', async () => {
    const { page } = await openPage(browser, server.url, { width: 375, height: 812 });
    await page.goto('/');
    const signUp = page.getByRole('link', { name: 'Sign up' });
    assert.equal(await signUp.isVisible(), false);
    const toggle = page.getByRole('button', { name: 'Toggle navigation' });
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await signUp.waitFor({ state: 'visible' });
  });

  it('stops a sign-up whose passwords differ, then one without the terms accepted', async () => {
    const { page } = await openPage(browser, server.url);
    await page.goto('/signup');
    await page.getByText('We aim to make your life better').waitFor();
    await page.getByText('Free access to our dashboard.').waitFor();
    assert.equal(
      await page.getByLabel('Password', { exact: true }).getAttribute('placeholder'),
      '8+ characters required',
    );

    await fillSignUp(page, { email: uniqueEmail('mismatch'), confirm: 'something else' });
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByRole('alert').getByText('Passwords do not match.').waitFor();

    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByRole('alert').getByText('You must accept the terms and conditions.').waitFor();
    assert.equal(new URL(page.url()).pathname, '/signup');
  });

  it("shows the server's field problems next to their fields", async () => {
    const { page } = await openPage(browser, server.url);
    await page.goto('/signup');
    await fillSignUp(page, { email: uniqueEmail('common'), confirm: 'password1', acceptTerms: true });
    await page.getByLabel('Password', { exact: true }).fill('password1');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    const passwordInput = page.locator('input[type="password"][aria-invalid="true"]');
    await passwordInput.waitFor();
    const problemId = await passwordInput.getAttribute('aria-describedby');
    assert.match(await page.locator(`[id="${problemId}"]`).innerText(), /most common passwords/);
    assert.equal(new URL(page.url()).pathname, '/signup');
  });

  it('answers a sign-up with a registered address as it answers a new one, naming no account', async () => {
    const email = uniqueEmail('taken');
    await register(server, email);
    const { page } = await openPage(browser, server.url);
    await page.goto('/signup');
    await fillSignUp(page, { email, acceptTerms: true });
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.waitForURL('**/login');
    await page
      .getByText(
        `We have sent a message to ${email}. Please read it, then sign in with this address and your password.`,
      )
      .waitFor();
    assert.equal(await page.getByText(/already/).count(), 0);
  });

  it('requires the last name as it requires the first, before asking the server', async () => {
    const { page } = await openPage(browser, server.url);
    await page.goto('/signup');
    await fillSignUp(page, { email: uniqueEmail('nameless'), acceptTerms: true });
    await page.getByLabel('Last name').fill('  ');
    const registrations: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/patients/register')) registrations.push(request.url());
    });
    await page.getByRole('button', { name: 'Sign Up' }).click();
    const lastName = page.getByLabel('Last name');
    await page.locator('input[aria-invalid="true"]').waitFor();
    assert.equal(await lastName.getAttribute('aria-invalid'), 'true');
    assert.equal(
      await page.locator(`[id="${await lastName.getAttribute('aria-describedby')}"]`).innerText(),
      'Last name is required',
    );
    assert.equal(await page.getByLabel('First name').getAttribute('aria-invalid'), 'false');
    assert.deepEqual(registrations, []);
    assert.equal(new URL(page.url()).pathname, '/signup');
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      assert.deepEqual(await seriousAxeViolations(page), [], `${viewport.width} px`);
    }
  });

  it('signs a new patient up and lands on /login, which confirms the account and lets the patient sign in', async () => {
    const email = uniqueEmail('new');
    const { page, problems } = await openPage(browser, server.url);
    await page.goto('/signup');
    await fillSignUp(page, { email, acceptTerms: true });
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.waitForURL('**/login');
    await page
      .getByText(
        `We have sent a message to ${email}. Please read it, then sign in with this address and your password.`,
      )
      .waitFor();
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      await page.setViewportSize(viewport);
      assert.deepEqual(await seriousAxeViolations(page), [], `${viewport.width} px`);
    }

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Remember me').check();
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/user/patient');
    await page.getByRole('button', { name: /Sam Newcomer/ }).waitFor();
    assert.deepEqual(problems, []);
  });

  it("answers an unknown address 404 with the app's not-found page, and robots.txt keeps crawlers out of the API and the areas", async () => {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      const { page, problems } = await openPage(browser, server.url, viewport);
      const answer = await page.goto('/nonexistent.php');
      assert.equal(answer?.status(), 404);
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      assert.deepEqual(await seriousAxeViolations(page), [], `${viewport.width} px`);
      await page.getByRole('link', { name: 'Go to the home page' }).click();
      await page.locator('#hero').waitFor();
      assert.deepEqual(problems, []);
    }
    const robots = await fetch(`${server.url}/robots.txt`);
    assert.equal(robots.status, 200);
    assert.match(robots.headers.get('content-type') ?? '', /^text\/plain/);
    assert.deepEqual((await robots.text()).trim().split('\n'), [
      'User-agent: *',
      'Allow: /',
      'Disallow: /api/',
      'Disallow: /user/',
    ]);
  });

  it('explains a failed sign-in and offers the forgot-password page', async () => {
    const { page } = await openPage(browser, server.url);
    await page.goto('/login');
    await page.getByLabel('Email').fill('nobody@example.test');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('alert').getByText('Login failed. Please check your credentials.').waitFor();

    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await page.getByRole('button', { name: 'Send me a link' }).waitFor();
  });

  it('downloads no signed-in area code on / and /login, and stays under 100 KB gzip', async () => {
    const sources = await builtSources();
    for (const start of ['/', '/login']) {
      const { page } = await openPage(browser, server.url);
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
      await page.goto(start);
      await page.waitForLoadState('networkidle');

      const signedInCode = scripts.flatMap((script) =>
        (sources.get(script) ?? []).filter((source) => SIGNED_IN_SOURCES.test(source)),
      );
      assert.deepEqual(signedInCode, [], `${start} downloaded signed-in code`);

      let gzipped = 0;
      for (const script of scripts) gzipped += gzipSync(await readFile(path.join(DIST_WEB, script))).length;
      assert.ok(gzipped <= ENTRY_BUDGET_GZIP_BYTES, `${start} downloads ${gzipped} bytes of gzipped JS`);
    }
  });

  it("draws at once in the clinic's locale and zone, which the page carries, without asking the API for them", async () => {
    const { page, problems } = await openPage(browser, server.url);
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await page.goto('/login');
    await page.waitForLoadState('networkidle');
    const carried = await page.locator('meta[name="medora-clinic"]').getAttribute('content');
    assert.deepEqual(JSON.parse(carried ?? 'null'), (await server.api('GET', '/api/clinic')).body);
    assert.equal(asked.filter((path) => path === '/api/clinic').length, 0, 'the settings come with the page');
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  it('bundles no server module: the web imports the server JSON types as types only, which the build erases', async () => {
    const sources = [...(await builtSources()).values()].flat();
    // src/links.ts only spells the UI's own addresses, which the server hands out too, and date-format.ts the dates
    // the e-mails write alike; both import nothing (docs/architecture.md).
    const shared = new Set(['src/links.ts', 'src/domain/shared/date-format.ts']);
    const serverCode = sources.filter(
      (source) => !source.startsWith('src/web/') && !source.startsWith('node_modules/') && !shared.has(source),
    );
    assert.deepEqual([...new Set(serverCode)], []);
  });

  // axe checks the public pages at both widths in axe-every-screen.ts.
});

async function fillSignUp(
  page: import('playwright-core').Page,
  { email, confirm = PASSWORD, acceptTerms = false }: { email: string; confirm?: string; acceptTerms?: boolean },
) {
  await page.getByLabel('First name').fill('Sam');
  await page.getByLabel('Last name').fill('Newcomer');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(confirm);
  await page.getByLabel('Phone Number').fill('+1 555 0199');
  await page.getByLabel('Birthdate').fill('1991-04-12');
  await page.getByLabel('Gender').selectOption('other');
  if (acceptTerms) await page.getByLabel(/accept the terms/).check();
}

async function register(server: TestServer, email: string) {
  const answer = await server.api('POST', '/api/patients/register', {
    body: {
      name: 'Taken Already',
      email,
      password: PASSWORD,
      phone: '+1 555 0100',
      birthdate: '1980-01-01',
      gender: 'male',
    },
  });
  assert.equal(answer.status, 202);
}
