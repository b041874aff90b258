import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App } from '../app.ts';
import type { Actor } from '../domain/shared/actor.ts';
import { asRecord, refuseUnstorableText } from '../domain/shared/validate.ts';
import { bearerToken, clientIp, parseBody, readBody } from './parse.ts';
import { isHttps, refuseCrossSite, sessionCookie } from './session-cookie.ts';
import { checkRole, match, needsSignIn, type Answer, type RouteTable } from './router.ts';
import { sendAnswer } from './send-answer.ts';

export interface ApiRequest {
  path: string;
  search: string;
  requestId: string;
  trustProxy: number;
}

/** One API request through its pipeline: route, origin check, sign-in, role, body, handler, answer. */
export async function handleApi(
  app: App,
  routes: RouteTable,
  req: IncomingMessage,
  res: ServerResponse,
  opts: ApiRequest,
): Promise<void> {
  const method = req.method ?? 'GET';
  const { route, params } = match(routes, method, opts.path);
  const https = isHttps(req, opts.trustProxy);
  const bearer = bearerToken(req.headers.authorization);
  const cookie = bearer ? undefined : sessionCookie(req, https);
  // A write through the browser's cookie, or a sign-in that sets it, must come from Medora's own pages.
  if (cookie || route.setsCookie) refuseCrossSite(req, https);
  const token = bearer ?? cookie;
  // Public routes are typed to take no actor (PublicHandler), so none is made up for them.
  const reads = method === 'GET' || method === 'HEAD';
  const actor = needsSignIn(route.access) ? await app.auth.authenticate(token, opts.requestId, !reads) : undefined;
  if (actor) {
    try {
      checkRole(route.access, actor);
    } catch (refused) {
      await app.audit.recordWrongRole(actor, `${method} ${route.path}`);
      throw refused;
    }
  }
  const body =
    reads || method === 'DELETE' ? {} : route.rawBody ? new Uint8Array(await readBody(req)) : await parseBody(req);
  const query: Record<string, string> = opts.search ? Object.fromEntries(new URLSearchParams(opts.search)) : {};
  refuseUnstorableText(query);
  if (!route.rawBody) refuseUnstorableText(asRecord(body));
  let answer: Answer;
  try {
    answer = await route.handler({
      params,
      query,
      search: opts.search,
      body,
      actor: actor as Actor,
      token,
      session: token === undefined ? undefined : cookie ? 'cookie' : 'bearer',
      https,
      headers: req.headers,
      ip: clientIp(req, opts.trustProxy),
      requestId: opts.requestId,
    });
  } finally {
    // The database's notice of a change reaches this server a moment after the commit; forgetting now means
    // the next request here already sees it (a deactivated doctor's, say). Other writes leave sessions as they were.
    if (route.changesAccounts && actor) app.requests.forgetAfterWriteBy(actor);
  }
  sendAnswer(res, opts.requestId, answer, req);
}
