import type { ModulePaths } from '../module-paths.ts';

/** The operations of src/http/routes/patients.ts. */
export const patientsPaths: ModulePaths = {
  tag: 'Patients',
  description: 'TODO',
  schemas: {},
  operations: {},
};
