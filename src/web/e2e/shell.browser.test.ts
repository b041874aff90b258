import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { Browser } from 'playwright-core';
import { openSignedInPage, serverAndBrowserPerSuite, seriousAxeViolations, type TestServer } from './harness.ts';
import { registerPatient, type Account } from './seed.ts';

const PHONE = { width: 390, height: 844 };

describe('the signed-in shell on a phone', () => {
  let server: TestServer;
  let browser: Browser;
  let patient: Account;

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    patient = await registerPatient(server, 'Sid Sidebar');
  });

  it('opens the sidebar over a backdrop, and closes it on Escape with focus back on the toggle', async () => {
    const { page, problems } = await openSignedInPage(browser, server, patient.email);
    await page.setViewportSize(PHONE);
    const toggle = page.getByRole('button', { name: 'Toggle sidebar' });
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await toggle.click();
    await menu.waitFor();
    await page.locator('.sidebar-backdrop').waitFor();
    assert.deepEqual(await seriousAxeViolations(page), []);

    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    assert.equal(await page.locator('.sidebar-backdrop').count(), 0);
    assert.equal(await toggle.evaluate((button) => button === document.activeElement), true);
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.deepEqual(problems, []);
  });

  it('closes the sidebar on a tap outside it, and keeps it open on a tap inside', async () => {
    const { page } = await openSignedInPage(browser, server, patient.email);
    await page.setViewportSize(PHONE);
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await menu.waitFor();
    // The sidebar's empty foot, below its links.
    await page.mouse.click(60, PHONE.height - 20);
    assert.equal(await menu.isVisible(), true, 'a tap on the menu keeps it');
    await page.mouse.click(PHONE.width - 20, 500);
    await menu.waitFor({ state: 'hidden' });
    assert.equal(await page.locator('.sidebar-backdrop').count(), 0);
  });

  it('keeps the sidebar beside the page on a wide screen, with no backdrop and no closing on Escape', async () => {
    const { page } = await openSignedInPage(browser, server, patient.email);
    await page.setViewportSize({ width: 1280, height: 800 });
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.waitFor();
    await page.keyboard.press('Escape');
    await page.mouse.click(900, 500);
    assert.equal(await menu.isVisible(), true);
    assert.equal(await page.locator('.sidebar-backdrop').count(), 0);
    assert.deepEqual(await seriousAxeViolations(page), []);
  });
});
