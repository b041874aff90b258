import type { Locator } from 'playwright-core';

/** Runs a table row's action: its button or link when it stands in the row, otherwise the item of the row's menu. */
export async function chooseRowAction(row: Locator, name: string | RegExp): Promise<void> {
  const control = row.getByRole('button', { name }).or(row.getByRole('link', { name }));
  if ((await control.count()) > 0) return control.first().click();
  await row.getByRole('button', { name: /^More actions/ }).click();
  await row.getByRole('menuitem', { name }).click();
}
