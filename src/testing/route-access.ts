// The route × identity test every module's HTTP test runs: each of its routes asked as each identity, ids made up.
import assert from 'node:assert/strict';
import type { Route } from '../http/router.ts';
import type { TestServer } from './http.ts';

/** Whether `role` may call `route` by its declared access (the router's own rule, `checkRole`). */
const lets = (route: Route, role: string) =>
  route.access === 'public' ||
  route.access === 'user' ||
  (Array.isArray(route.access) ? route.access.includes(role as never) : route.access === role);

/**
 * Asks every route as every identity (`none` signed out) with made-up ids: signed out is 401 unless the route is
 * public; a role its access leaves out is 403; a role it lets in is neither, and never a 5xx. `roleOf` names the
 * role of an identity whose name is not one (`nurse_elsewhere`). Answers how many asks it made.
 */
export async function assertRoutesAnswerByAccess(
  server: Pick<TestServer, 'api'>,
  routes: readonly Route[],
  identities: Record<string, string | undefined>,
  roleOf: (who: string) => string = (who) => who,
): Promise<number> {
  let asked = 0;
  for (const route of routes) {
    const path = route.path.replace(/\{\w+\}/g, '999999');
    for (const [who, token] of Object.entries(identities)) {
      const res = await server.api(route.method, path, { token, body: route.method === 'GET' ? undefined : {} });
      const signedOut = who === 'none' && route.access !== 'public';
      const expected = signedOut ? [401] : lets(route, roleOf(who)) ? undefined : [403];
      if (expected) assert.deepEqual([res.status], expected, `${route.method} ${route.path} as ${who}`);
      else
        assert.ok(
          ![401, 403].includes(res.status) && res.status < 500,
          `${route.method} ${route.path} as ${who} → ${res.status} ${JSON.stringify(res.body)}`,
        );
      asked += 1;
    }
  }
  return asked;
}
