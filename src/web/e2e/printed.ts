/**
 * A printout as paper shows it: print media at the width A4 leaves inside its margins (styles/print.css), the
 * clinic's letterhead, the patient block, the date and, where a clinician signs, the signature line, and none of
 * the app around it (header, sidebar, buttons, fields), nothing running off the page.
 */
import type { Page } from 'playwright-core';

/** A4's 210 mm less the 15 mm margins each side, at CSS's 96 px to the inch; Letter's page is wider. */
const A4_CONTENT_WIDTH = Math.floor(((210 - 2 * 15) / 25.4) * 96);

export interface PrintedExpectation {
  /** What the letterhead names: the clinic's name, address and phone. */
  clinic: string[];
  /** The patient's name, birth date and id under the letterhead (a list of patients has them per row instead). */
  patient: boolean;
  /** A line a clinician signs on, with their name and role. */
  signature: boolean;
  /** Text the printout must hold besides (the receipt's "taken by …"). */
  text?: string[];
}

/** What is wrong with the page printed, one line each; `where` names it in each line. */
export async function printedProblems(page: Page, where: string, expected: PrintedExpectation): Promise<string[]> {
  const screenSize = page.viewportSize();
  await page.emulateMedia({ media: 'print' });
  await page.setViewportSize({ width: A4_CONTENT_WIDTH, height: 1000 });
  try {
    const problems: string[] = [];
    const shown = async (selector: string) => page.locator(`${selector} >> visible=true`).count();
    const letterhead = page.locator('.letterhead >> visible=true').first();
    const clinic = (await letterhead.count()) ? ((await letterhead.innerText()) ?? '').replace(/\s+/g, ' ') : '';
    for (const part of expected.clinic)
      if (!clinic.includes(part)) problems.push(`${where}: the letterhead lacks "${part}" ("${clinic}")`);
    const fields = await page
      .locator('.printout-patient dt >> visible=true')
      .evaluateAll((terms) => terms.map((dt) => (dt.textContent ?? '').trim()));
    const wanted = [...(expected.patient ? ['Patient', 'Birth date', 'Patient ID'] : []), 'Printed'];
    const missing = wanted.filter((name) => !fields.includes(name));
    if (missing.length) problems.push(`${where}: the head lacks ${missing.join(', ')} (has ${fields.join(', ')})`);
    if (expected.signature) {
      const signature = page.locator('.signature-line >> visible=true').first();
      const [name, role] = await Promise.all(
        ['.signature-name', '.signature-role'].map(async (part) =>
          (await signature.locator(part).count()) ? ((await signature.locator(part).textContent()) ?? '').trim() : '',
        ),
      );
      if (!name || !role) problems.push(`${where}: no signature line with a name and role ("${name}", "${role}")`);
    }
    // As printed: what is hidden on paper is left out; headers set in capitals are compared regardless of case.
    const body = (await page.locator('body').innerText()).replace(/\s+/g, ' ').toLowerCase();
    for (const text of expected.text ?? [])
      if (!body.includes(text.toLowerCase())) problems.push(`${where}: lacks "${text}"`);
    for (const part of ['.shell-header', '.sidebar', 'button', 'input', 'select', '.button', '.data-table-pager'])
      if (await shown(part)) problems.push(`${where}: prints ${await shown(part)} × ${part}`);
    const overflow = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const cut = [...document.querySelectorAll<HTMLElement>('table, .table-scroll, .printout')]
        .filter((el) => el.getClientRects().length > 0)
        .filter((el) => el.getBoundingClientRect().right > width + 0.5 || el.scrollWidth > el.clientWidth + 1)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
      return { page: document.documentElement.scrollWidth - width, cut };
    });
    if (overflow.page > 0) problems.push(`${where}: runs ${overflow.page} px off the page`);
    if (overflow.cut.length) problems.push(`${where}: cuts ${overflow.cut.join(', ')}`);
    return problems;
  } finally {
    await page.emulateMedia({ media: 'screen' });
    if (screenSize) await page.setViewportSize(screenSize);
  }
}
