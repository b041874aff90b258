import type { ModulePaths } from '../module-paths.ts';

/** The operations of src/http/routes/reports.ts. */
export const reportsPaths: ModulePaths = {
  tag: 'Reports',
  description: 'TODO',
  schemas: {},
  operations: {},
};
