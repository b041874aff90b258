import type { ModulePaths } from '../module-paths.ts';

/** The operations of src/http/routes/platform.ts. */
export const platformPaths: ModulePaths = {
  tag: 'Platform',
  description: 'TODO',
  schemas: {},
  operations: {},
};
