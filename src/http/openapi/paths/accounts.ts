import type { ModulePaths } from '../module-paths.ts';

/** The operations of src/http/routes/accounts.ts. */
export const accountsPaths: ModulePaths = {
  tag: 'Accounts',
  description: 'TODO',
  schemas: {},
  operations: {},
};
