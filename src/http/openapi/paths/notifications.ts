import type { ModulePaths } from '../module-paths.ts';

/** The operations of src/http/routes/notifications.ts. */
export const notificationsPaths: ModulePaths = {
  tag: 'Notifications',
  description: 'TODO',
  schemas: {},
  operations: {},
};
