import type { App } from '../../app.ts';
import { created, listOf, ok } from '../answers.ts';
import { accountChange, cookieSignIn, route as r, type Route } from '../router.ts';
import { resetPasswordLink } from '../../links.ts';
import { linkOrigin } from '../link-origin.ts';
import { sessionAnswer, signedOutAnswer, type Holder } from '../session-answers.ts';

/** Accounts: registration, sign-in and its sessions, passwords, e-mail verification, two-step sign-in, staff. */
export function accountRoutes(app: App, { publicUrl }: { publicUrl?: string }): Route[] {
  const browser = (https: boolean): Holder => ({ kind: 'cookie', https, now: app.clock.now() });
  const holder = (session: 'cookie' | 'bearer' | undefined, https: boolean): Holder =>
    session === 'cookie' ? browser(https) : { kind: 'bearer' };
  const origin = (https: boolean, headers: { host?: string }) => linkOrigin(publicUrl, https, headers.host);
  return [
    // The same 202 for an address new to the clinic and one with an account (whose owner is told instead).
    r('POST', '/api/patients/register', 'public', async ({ body, ip, requestId }) => ({
      status: 202,
      body: await app.auth.register(body, { ip, requestId }),
    })),
    // API and CLI clients get a bearer token; the browser signs in through /api/session and gets a cookie.
    r('POST', '/api/login', 'public', async ({ body, ip, requestId }) =>
      ok(await app.auth.login(body, { ip, requestId })),
    ),
    r('POST', '/api/login/mfa', 'public', async ({ body, ip, requestId }) =>
      ok(await app.mfa.completeSignIn(body, { ip, requestId })),
    ),
    r('POST', '/api/login/mfa/setup', 'public', async ({ body }) => ok(await app.mfa.beginMfaAtSignIn(body))),
    cookieSignIn(
      r('POST', '/api/session', 'public', async ({ body, ip, requestId, https }) =>
        sessionAnswer(await app.auth.login(body, { ip, requestId }), browser(https)),
      ),
    ),
    cookieSignIn(
      r('POST', '/api/session/mfa', 'public', async ({ body, ip, requestId, https }) =>
        sessionAnswer(await app.mfa.completeSignIn(body, { ip, requestId }), browser(https)),
      ),
    ),
    accountChange(
      r('POST', '/api/logout', 'user', async ({ token, actor, session, https }) => {
        await app.auth.logout(token ?? '', actor);
        return signedOutAnswer('You have been signed out', holder(session, https));
      }),
    ),
    accountChange(
      r('POST', '/api/logout/everywhere', 'user', async ({ actor, session, https }) => {
        await app.auth.logoutEverywhere(actor);
        return signedOutAnswer('You have been signed out on every device', holder(session, https));
      }),
    ),
    r('GET', '/api/user', 'user', async ({ actor }) => ok(await app.auth.currentUser(actor))),
    accountChange(
      r('PUT', '/api/user/password', 'user', async ({ body, token, actor, session, https, ip, requestId }) =>
        sessionAnswer(
          await app.passwords.changePassword(body, token ?? '', actor, { ip, requestId }),
          holder(session, https),
        ),
      ),
    ),
    r('POST', '/api/password-reset', 'public', async ({ body, ip, requestId }) =>
      ok(await app.passwords.resetPassword(body, { ip, requestId })),
    ),
    r('POST', '/api/password-reset-requests', 'public', async ({ body, ip, requestId }) => ({
      status: 202,
      body: await app.passwords.requestPasswordReset(body, { ip, requestId }),
    })),
    r('POST', '/api/email-verification/preview', 'public', async ({ body }) =>
      ok(await app.auth.previewVerification(body)),
    ),
    r('POST', '/api/email-verification', 'public', async ({ body, ip, requestId }) =>
      ok(await app.auth.verifyEmail(body, { ip, requestId })),
    ),
    r('POST', '/api/user/email-verification', 'user', async ({ actor }) =>
      ok(await app.auth.resendVerification(actor)),
    ),
    r('POST', '/api/admin/password-resets', 'admin', async ({ body, actor, https, headers }) => {
      const link = await app.passwords.issueResetLink(body, actor);
      return created({ ...link, url: resetPasswordLink(origin(https, headers), link.token) });
    }),
    r('GET', '/api/user/mfa', 'user', async ({ actor }) => ok(await app.mfa.mfaStatus(actor))),
    r('POST', '/api/user/mfa', 'user', async ({ actor }) => ok(await app.mfa.beginMfa(actor))),
    r('POST', '/api/user/mfa/confirm', 'user', async ({ body, actor }) => ok(await app.mfa.confirmMfa(body, actor))),
    r('POST', '/api/user/mfa/disable', 'user', async ({ body, actor }) => {
      await app.mfa.disableMfa(body, actor);
      return ok({ message: 'Two-step sign-in is off' });
    }),
    r('POST', '/api/user/mfa/recovery-codes', 'user', async ({ body, actor }) =>
      ok(await app.mfa.renewRecoveryCodes(body, actor)),
    ),
    r('POST', '/api/admin/mfa-resets', 'admin', async ({ body, actor }) => ok(await app.mfa.resetUserMfa(body, actor))),
    r('GET', '/api/admin/receptionists', 'admin', async ({ query, actor }) =>
      listOf('receptionists', await app.staff.listReceptionists(query, actor)),
    ),
    accountChange(
      r('POST', '/api/admin/receptionists', 'admin', async ({ body, actor }) =>
        created(await app.staff.createReceptionist(body, actor)),
      ),
    ),
    accountChange(
      r('DELETE', '/api/admin/receptionists/{id}', 'admin', async ({ params, actor }) =>
        ok(await app.staff.deactivateReceptionist(params.id, actor)),
      ),
    ),
    r('GET', '/api/admin/lab-technicians', 'admin', async ({ query, actor }) =>
      listOf('lab_technicians', await app.staff.listLabTechnicians(query, actor)),
    ),
    accountChange(
      r('POST', '/api/admin/lab-technicians', 'admin', async ({ body, actor }) =>
        created(await app.staff.createLabTechnician(body, actor)),
      ),
    ),
    accountChange(
      r('DELETE', '/api/admin/lab-technicians/{id}', 'admin', async ({ params, actor }) =>
        ok(await app.staff.deactivateLabTechnician(params.id, actor)),
      ),
    ),
    r('GET', '/api/admin/nurses', 'admin', async ({ query, actor }) =>
      listOf('nurses', await app.staff.listNurses(query, actor)),
    ),
    accountChange(
      r('POST', '/api/admin/nurses', 'admin', async ({ body, actor }) =>
        created(await app.staff.createNurse(body, actor)),
      ),
    ),
    accountChange(
      r('DELETE', '/api/admin/nurses/{id}', 'admin', async ({ params, actor }) =>
        ok(await app.staff.deactivateNurse(params.id, actor)),
      ),
    ),
  ];
}
