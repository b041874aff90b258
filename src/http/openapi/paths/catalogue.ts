import type { ModulePaths } from '../module-paths.ts';

/** The operations of src/http/routes/catalogue.ts. */
export const cataloguePaths: ModulePaths = {
  tag: 'Catalogue',
  description: 'TODO',
  schemas: {},
  operations: {},
};
