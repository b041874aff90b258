import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from '../../testing/node-test.ts';
import type { Browser } from 'playwright-core';
import { builtSources, openPage, openSignedInPage, serverAndBrowserPerSuite, type TestServer } from './harness.ts';
import { areaPages, publicPages } from '../route-table.ts';
import { registerPatient } from './seed.ts';

/** The scripts a page's HTML names: the entry and its modulepreload links. */
const namedScripts = (html: string) =>
  new Set(
    [...html.matchAll(/<(?:script[^>]*\bsrc|link rel="modulepreload" href)="([^"]+)"/g)].flatMap((m) => m[1] ?? []),
  );

describe('first screens', () => {
  let server: TestServer;
  let browser: Browser;

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
  });

  it('has every script a signed-in page runs before its first API call named in its HTML, so the call waits on two round trips', async () => {
    const patient = await registerPatient(server);
    const { page, problems } = await openSignedInPage(browser, server, patient.email);
    for (const path of ['/user/patient/bills', '/user/patient/records', '/user/patient/book']) {
      // The page before asks nothing more, so the first API call seen below is the new page's own.
      await page.waitForLoadState('networkidle');
      const scriptsBeforeApi: string[] = [];
      let apiCalled = false;
      let html = '';
      const onRequest = (request: import('playwright-core').Request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith('/api/')) apiCalled = true;
        else if (request.resourceType() === 'script' && !apiCalled) scriptsBeforeApi.push(url.pathname);
      };
      page.on('request', onRequest);
      const answer = await page.goto(path);
      html = (await answer?.text()) ?? '';
      await page.locator('.shell-main h1').waitFor();
      page.off('request', onRequest);
      const named = namedScripts(html);
      assert.ok(apiCalled, path);
      assert.ok(scriptsBeforeApi.length > 3, `${path} ran ${scriptsBeforeApi.length} scripts`);
      assert.deepEqual(
        scriptsBeforeApi.filter((script) => !named.has(script)),
        [],
        `${path}: scripts found only by running others`,
      );
      assert.match(html, /<link rel="modulepreload" href="\/assets\/app-shell-/);
    }
    assert.deepEqual(problems, []);
  });

  it('sends the components most signed-in pages share as one file, so a patient page names at most 22 scripts', async () => {
    const listed = await readFile(new URL('../components/signed-in-shared.ts', import.meta.url), 'utf8');
    const shared = [...listed.matchAll(/^import '\.\/(.+)';$/gm)].map((m) => `src/web/components/${m[1]}`);
    const sources = await builtSources();
    const scriptsOf = async (path: string) =>
      namedScripts(await (await fetch(new URL(path.replace(/:\w+/g, '1'), server.url))).text());
    const publicSources = new Set<string>();
    for (const path of Object.keys(publicPages)) {
      for (const script of await scriptsOf(path))
        for (const input of sources.get(script) ?? []) publicSources.add(input);
    }
    const signedInOnly = shared.filter((source) => !publicSources.has(source));
    const files = [...sources].filter(([, inputs]) => inputs.some((input) => signedInOnly.includes(input)));
    assert.ok(signedInOnly.length >= 10, signedInOnly.join(', '));
    assert.deepEqual(
      files.map(([url]) => url),
      [files[0]?.[0]],
      'the shared modules no public page uses are in one file',
    );
    for (const path of Object.keys(areaPages.patient)) {
      const named = await scriptsOf(path);
      assert.ok(named.size <= 22, `${path} names ${named.size} scripts`);
    }
  });

  it('lets only the stylesheet of the path block rendering, and swaps to the other one when the path needs it', async () => {
    const { page, problems } = await openPage(browser, server.url);
    const sheets = () =>
      page.evaluate(() =>
        Object.fromEntries(
          [...document.querySelectorAll<HTMLLinkElement>('link[data-stylesheet]')].map((link) => [
            link.dataset.stylesheet,
            matchMedia(link.media || 'all').matches,
          ]),
        ),
      );
    const home = await (await page.goto('/'))?.text();
    assert.match(home ?? '', /data-stylesheet="app" media="not all"/);
    assert.doesNotMatch(home ?? '', /data-stylesheet="main" media=/);
    await page.locator('#hero').waitFor();
    assert.deepEqual(await sheets(), { main: true, app: false });

    await page.getByRole('link', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/login');
    await page.getByLabel('Password').waitFor();
    assert.deepEqual(await sheets(), { main: false, app: true });

    const login = await (await page.goto('/login'))?.text();
    assert.match(login ?? '', /data-stylesheet="main" media="not all"/);
    assert.deepEqual(problems, []);
  });
});
