import type { ModulePaths } from '../module-paths.ts';

/** The operations of src/http/routes/audit.ts. */
export const auditPaths: ModulePaths = {
  tag: 'Audit',
  description: 'TODO',
  schemas: {},
  operations: {},
};
