import type { Locator } from 'playwright-core';

/** Runs a table row's action: its button or link when it stands in the row, otherwise the item of the row's menu. */
export async function chooseRowAction(row: Locator, name: string | RegExp): Promise<void> {
  const control = row.getByRole('button', { name }).or(row.getByRole('link', { name }));
  const menu = row.getByRole('button', { name: /^More actions/ });
  // The row may still be on its way: wait until it shows the action or its menu, then take whichever it has.
  await control.or(menu).first().waitFor();
  if ((await control.count()) > 0) return control.first().click();
  await menu.click();
  await row.getByRole('menuitem', { name }).click();
}
