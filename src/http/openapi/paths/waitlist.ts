import type { ModulePaths } from '../module-paths.ts';

/** The operations of src/http/routes/waitlist.ts. */
export const waitlistPaths: ModulePaths = {
  tag: 'Waitlist',
  description: 'TODO',
  schemas: {},
  operations: {},
};
