import type { App } from '../../app.ts';
import { clinicSettings } from '../clinic-settings-tag.ts';
import { ok } from '../answers.ts';
import { route as r, type Route } from '../router.ts';
import { RETRY_UNAVAILABLE_AFTER_S } from '../errors.ts';

/** The platform: liveness and readiness for a load balancer, and the clinic's settings every page formats with. */
export function platformRoutes(app: App): Route[] {
  const clinic = async () => ok(clinicSettings(app.config));
  const readiness = async () =>
    (await app.health.ready())
      ? ok({ status: 'ok', database: 'ok' })
      : {
          status: 503,
          body: { status: 'degraded', database: 'unavailable' },
          headers: { 'retry-after': String(RETRY_UNAVAILABLE_AFTER_S) },
        };
  return [
    r('GET', '/api/health/live', 'public', async () => ok({ status: 'ok' })),
    r('GET', '/api/health/ready', 'public', readiness),
    r('GET', '/api/health', 'public', readiness),
    r('GET', '/api/clinic', 'public', clinic),
  ];
}
