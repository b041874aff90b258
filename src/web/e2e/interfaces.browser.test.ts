/**
 * The admin's Interfaces screen: a receiver added with its events, a dead letter found by its filter and resent
 * after a confirm, a received message read whole (as text, escaped), an unmatched result rejected with a reason.
 */
import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { Page } from 'playwright-core';
import {
  openSignedInPage,
  serverAndBrowserPerSuite,
  seriousAxeViolations,
  settled,
  type TestServer,
} from './harness.ts';
import { chooseRowAction } from './row-actions.ts';
import { seedClinic, seedHl7Traffic, type Clinic } from './seed.ts';

describe('the admin keeps the HL7 interfaces in the browser', () => {
  let server: TestServer;
  let clinic: Clinic;
  let deadLetter: string;
  let page: Page;
  let problems: string[];

  serverAndBrowserPerSuite(async (started, browser) => {
    server = started;
    clinic = await seedClinic(server);
    ({ deadLetter } = await seedHl7Traffic(server, clinic));
    ({ page, problems } = await openSignedInPage(browser, server, clinic.admin.email));
  });

  const region = (name: string) => page.getByRole('region', { name, exact: true });
  const show = (view: string) => page.getByRole('group', { name: 'Show' }).getByRole('button', { name: view }).click();
  const rowOf = (table: string, text: string) => region(table).locator('tbody tr', { hasText: text });

  it('adds a receiver with its events, resends a dead letter and shows messages as they came', async () => {
    await page.goto('/user/admin/interfaces');
    await page.getByRole('heading', { name: 'Interfaces', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Add receiver' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add receiver' });
    await dialog.getByLabel('Name').fill('Registration');
    await dialog.getByLabel('Host').fill('ris.example');
    await dialog.getByLabel('Port').fill('2575');
    await dialog.getByRole('checkbox', { name: 'ADT^A01 admit' }).check();
    await dialog.getByRole('checkbox', { name: 'ADT^A04 register a patient' }).check();
    await dialog.getByRole('button', { name: 'Add receiver' }).click();
    await page.getByText('Registration added').waitFor();
    await rowOf('Receivers', 'Registration').getByText('ris.example:2575').waitFor();
    assert.deepEqual(
      await rowOf('Receivers', 'Lab system').locator('td[data-label="Dead letters"]').textContent(),
      '1',
    );

    await show('Messages sent');
    await page.getByLabel('Status').selectOption('dead');
    const letter = rowOf('Messages sent', deadLetter);
    await letter.getByText('Dead letter').waitFor();
    await chooseRowAction(letter, `Resend message ${deadLetter}`);
    await page.getByRole('dialog', { name: 'Resend message' }).getByRole('button', { name: 'Resend' }).click();
    await page.getByText(`Message ${deadLetter} queued again for Lab system`).waitFor();
    await region('Messages sent').getByText('No messages sent.').waitFor();

    await page.getByLabel('Status').selectOption('');
    await chooseRowAction(rowOf('Messages sent', deadLetter), `View message ${deadLetter}`);
    const raw = page.getByRole('dialog', { name: `Message ${deadLetter} to Lab system` });
    const body = raw.getByRole('region', { name: 'Message' }).locator('pre');
    assert.match((await body.textContent()) ?? '', /\nPID\|1\|\|1\^\^\^MEDORA\^MR\|\|Tester\^Pat <b>$/);
    assert.equal(await raw.locator('b').count(), 0, 'the message is shown as text, never as markup');
    assert.match((await raw.getByRole('region', { name: 'Acknowledgement' }).textContent()) ?? '', /MSA\|AR\|/);
    await page.keyboard.press('Escape');

    await show('Receivers');
    await rowOf('Receivers', 'Lab system').locator('td[data-label="Dead letters"]', { hasText: '0' }).waitFor();

    await show('Messages received');
    await page.getByLabel('Status').selectOption('error');
    const refused = region('Messages received').locator('tbody tr', { hasText: 'AR' });
    await chooseRowAction(refused, /^View message/);
    await page.getByRole('dialog').locator('pre', { hasText: 'not an HL7 message' }).waitFor();
    await page.keyboard.press('Escape');

    await show('Unmatched results');
    await chooseRowAction(rowOf('Unmatched results', 'NO-SUCH-ORDER'), /^Reject 2823-3 = /);
    const reject = page.getByRole('dialog', { name: /^Reject 2823-3 = / });
    await reject.getByLabel('Reason').fill('Not our patient');
    await reject.getByRole('button', { name: 'Reject result' }).click();
    await page.getByText(/^Result 2823-3 = .* rejected$/).waitFor();
    await region('Unmatched results').getByText('No unmatched results.').waitFor();

    await settled(page);
    assert.deepEqual(await seriousAxeViolations(page), []);
    assert.deepEqual(problems, []);
  });
});
