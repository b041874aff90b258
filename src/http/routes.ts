import type { App } from '../app.ts';
import { notFound } from '../domain/shared/errors.ts';
import { created, ok } from './answers.ts';
import { route as r, type Route } from './router.ts';

/** The whole API, one route a line; each handler parses, calls one use case and answers. */
export function apiRoutes(app: App): Route[] {
  return [
    // --- platform
    r('GET', '/api/health', 'public', async () => {
      const up = await app.db.query('select 1').then(() => true, () => false);
      return up ? ok({ status: 'ok', database: 'ok' }) : { status: 503, body: { status: 'degraded', database: 'unavailable' } };
    }),
    r('GET', '/api/files/{id}', 'public', async ({ params }) => {
      const file = /^\d+$/.test(params.id) ? await app.files.find(Number(params.id)) : undefined;
      if (!file) throw notFound('File');
      return { body: file.bytes, headers: { 'content-type': file.contentType, 'cache-control': 'public, max-age=86400' } };
    }),

    // --- accounts
    r('POST', '/api/patients/register', 'public', async ({ body, requestId }) => created({ user: await app.auth.register(body, requestId) })),
    r('POST', '/api/login', 'public', async ({ body, ip, requestId }) => ok(await app.auth.login(body, { ip, requestId }))),
    r('POST', '/api/logout', 'user', async ({ token, actor }) => {
      await app.auth.logout(token!, actor);
      return ok({ message: 'You have been signed out' });
    }),
    r('GET', '/api/user', 'user', async ({ actor }) => ok(await app.auth.currentUser(actor))),
  ];
}
