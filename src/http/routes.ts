import type { App } from '../app.ts';
import type { Route } from './router.ts';
import { platformRoutes } from './routes/platform.ts';
import { accountRoutes } from './routes/accounts.ts';
import { reportRoutes } from './routes/reports.ts';
import { patientRoutes } from './routes/patients.ts';
import { catalogueRoutes } from './routes/catalogue.ts';
import { schedulingRoutes } from './routes/scheduling.ts';
import { timeOffRoutes } from './routes/time-off.ts';
import { waitlistRoutes } from './routes/waitlist.ts';
import { recordRoutes } from './routes/records.ts';
import { careRoutes } from './routes/care.ts';
import { labRoutes } from './routes/lab.ts';
import { vitalsRoutes } from './routes/vitals.ts';
import { interfacesRoutes } from './routes/interfaces.ts';
import { medicineRoutes } from './routes/medicines.ts';
import { billingRoutes } from './routes/billing.ts';
import { notificationRoutes } from './routes/notifications.ts';
import { auditRoutes } from './routes/audit.ts';
import { inpatientRoutes } from './routes/inpatient.ts';
import { apiDocsRoutes } from './routes/api-docs.ts';

/**
 * The whole API: each module's routes in src/http/routes/, one route a line; each handler parses, calls one use
 * case and answers. Links the API hands out lead to `publicUrl` when it is set (PUBLIC_URL).
 */
export function apiRoutes(app: App, { publicUrl }: { publicUrl?: string } = {}): Route[] {
  return [
    ...platformRoutes(app),
    ...accountRoutes(app, { publicUrl }),
    ...reportRoutes(app),
    ...patientRoutes(app),
    ...catalogueRoutes(app),
    ...schedulingRoutes(app),
    ...timeOffRoutes(app),
    ...waitlistRoutes(app),
    ...recordRoutes(app),
    ...careRoutes(app),
    ...labRoutes(app),
    ...vitalsRoutes(app),
    ...medicineRoutes(app),
    ...interfacesRoutes(app),
    ...billingRoutes(app, { publicUrl }),
    ...inpatientRoutes(app),
    ...notificationRoutes(app, { publicUrl }),
    ...auditRoutes(app),
    ...apiDocsRoutes(),
  ];
}
