import type { ModulePaths } from '../module-paths.ts';

/** The operations of src/http/routes/scheduling.ts. */
export const schedulingPaths: ModulePaths = {
  tag: 'Scheduling',
  description: 'TODO',
  schemas: {},
  operations: {},
};
