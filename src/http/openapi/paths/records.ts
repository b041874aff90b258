import type { ModulePaths } from '../module-paths.ts';

/** The operations of src/http/routes/records.ts. */
export const recordsPaths: ModulePaths = {
  tag: 'Records',
  description: 'TODO',
  schemas: {},
  operations: {},
};
