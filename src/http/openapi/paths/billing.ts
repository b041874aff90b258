import type { ModulePaths } from '../module-paths.ts';

/** The operations of src/http/routes/billing.ts. */
export const billingPaths: ModulePaths = {
  tag: 'Billing',
  description: 'TODO',
  schemas: {},
  operations: {},
};
