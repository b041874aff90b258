import type { ModulePaths } from '../module-paths.ts';
import { pageQuery } from '../components.ts';
import {
  AccountEmailRequest,
  BrowserSecondStepSessionShape,
  BrowserSessionShape,
  ChallengeRequest,
  DeactivatedShape,
  EmailAnswerShape,
  MessageAnswerShape,
  MfaChallengeShape,
  MfaCodeRequest,
  MfaSetupShape,
  MfaStatusShape,
  NewNurseRequest,
  NewStaffRequest,
  PasswordChangeRequest,
  PasswordRequest,
  PasswordResetRequest,
  RecoveryCodesShape,
  RegisterRequest,
  ResetLinkShape,
  SecondStepRequest,
  SecondStepSessionShape,
  SessionShape,
  SignInRequest,
  StaffShape,
  VerificationPreviewRequest,
  VerificationPreviewShape,
  VerificationRequest,
} from '../../../domain/auth/auth-shapes.ts';
import { anyOf, listOf, ref, string } from '../../../domain/shared/wire-schema.ts';

/** A POST that reads no body still parses one sent: malformed → 400, too large → 413. */
const BODYLESS_POST = [400, 413];

const setCookie = {
  'Set-Cookie': string({
    description: 'The HttpOnly session cookie (`medora_session`, `__Host-medora_session` over HTTPS)',
  }),
};

/** The operations of src/http/routes/accounts.ts. */
export const accountsPaths: ModulePaths = {
  tag: 'Accounts',
  description:
    'Registration, sign-in and sessions, passwords, e-mail verification, two-step sign-in (staff), and the receptionist accounts ' +
    'admins manage. API and CLI clients sign in with `POST /api/login` and send the token as `Authorization: Bearer <token>`; the ' +
    'browser signs in with `POST /api/session` and holds the session in an HttpOnly cookie. Sign-in, password and code checks ' +
    'are throttled per account and address: 429 `too_many_attempts` with `Retry-After`.',
  schemas: {
    Session: SessionShape,
    BrowserSession: BrowserSessionShape,
    MfaChallenge: MfaChallengeShape,
    MfaSetup: MfaSetupShape,
    MfaStatus: MfaStatusShape,
    Staff: StaffShape,
  },
  operations: {
    'POST /api/patients/register': {
      summary: 'Sign up as a patient',
      description:
        'Creates a patient account and e-mails a verification link. The answer is the same 202 whether or not the address already ' +
        'has an account (its owner is e-mailed instead and nothing is created), so nobody learns who is registered. The role is ' +
        'always patient. Sign-ups from one address are throttled (429).',
      access: 'public',
      body: RegisterRequest,
      answers: { 202: MessageAnswerShape },
      errors: [429],
    },
    'POST /api/login': {
      summary: 'Sign in (bearer token)',
      description:
        'Checks the e-mail and password and opens a session whose token the answer carries, or — for an account with (or a role ' +
        'requiring) two-step sign-in — answers a challenge to complete at `POST /api/login/mfa`. A wrong e-mail or password is 401 ' +
        '`invalid_credentials`; repeated failures are slowed down (429 `too_many_attempts`).',
      access: 'public',
      body: SignInRequest,
      answers: { 200: anyOf(ref('Session'), ref('MfaChallenge')) },
      errors: [401, 429],
    },
    'POST /api/login/mfa': {
      summary: 'Complete a two-step sign-in (bearer token)',
      description:
        "The second step: the challenge and either the authenticator's `code` or a `recovery_code`. When the sign-in set up a new " +
        'authenticator, its first code turns it on and the answer carries the recovery codes. A wrong code is 422 naming the field; ' +
        'an expired or unknown challenge is 401 `challenge_expired`; too many wrong codes 429.',
      access: 'public',
      body: SecondStepRequest,
      answers: { 200: SecondStepSessionShape },
      errors: [401, 429],
    },
    'POST /api/login/mfa/setup': {
      summary: 'Set up an authenticator during sign-in',
      description:
        'For a sign-in answered `mfa: "enrol"`: a new authenticator secret and its QR code; the first code from it goes to ' +
        '`/api/login/mfa` or `/api/session/mfa`. An expired challenge is 401 `challenge_expired`; an account that already has an ' +
        'authenticator is 409 `mfa_enabled`.',
      access: 'public',
      body: ChallengeRequest,
      answers: { 200: ref('MfaSetup') },
      errors: [401, 409],
    },
    'POST /api/session': {
      summary: 'Sign in (browser cookie)',
      description:
        'As `POST /api/login`, but the session goes into an HttpOnly cookie and the answer carries no token. Refused from another site ' +
        '(403 `cross_site_request`).',
      access: 'public',
      body: SignInRequest,
      answers: {
        200: { content: { 'application/json': anyOf(ref('BrowserSession'), ref('MfaChallenge')) }, headers: setCookie },
      },
      errors: [401, 403, 429],
    },
    'POST /api/session/mfa': {
      summary: 'Complete a two-step sign-in (browser cookie)',
      description:
        'As `POST /api/login/mfa`, but the session goes into an HttpOnly cookie and the answer carries no token.',
      access: 'public',
      body: SecondStepRequest,
      answers: { 200: { content: { 'application/json': BrowserSecondStepSessionShape }, headers: setCookie } },
      errors: [401, 403, 429],
    },
    'POST /api/logout': {
      summary: 'Sign out',
      description: "Ends this session (the token or the browser's cookie, which is cleared).",
      access: 'user',
      answers: { 200: MessageAnswerShape },
      errors: BODYLESS_POST,
    },
    'POST /api/logout/everywhere': {
      summary: 'Sign out on every device',
      description:
        'Ends every session of the signed-in user, this one included (a phone left somewhere, a shared computer).',
      access: 'user',
      answers: { 200: MessageAnswerShape },
      errors: BODYLESS_POST,
    },
    'GET /api/user': {
      summary: 'The signed-in user',
      access: 'user',
      answers: { 200: ref('User') },
    },
    'PUT /api/user/password': {
      summary: 'Change my password',
      description:
        'The current password and a new one. Every session of the user ends and this one is issued anew, so the caller stays signed ' +
        'in: a bearer client gets the new token in the answer, the browser a new cookie (and no token). A wrong current password is ' +
        '422 naming `current_password` (counted like sign-in attempts: 429 after too many).',
      access: 'user',
      body: PasswordChangeRequest,
      answers: { 200: anyOf(ref('Session'), ref('BrowserSession')) },
      errors: [429],
    },
    'POST /api/password-reset': {
      summary: 'Set a new password with a reset link',
      description:
        'The token from a reset link (e-mailed, or handed over by an admin) and the new password; the link is used up and every ' +
        'session of the account ends. An unknown, used or expired link is 422 `reset_link_invalid`.',
      access: 'public',
      body: PasswordResetRequest,
      answers: { 200: EmailAnswerShape },
      errors: [429],
    },
    'POST /api/password-reset-requests': {
      summary: 'Forgot password: e-mail a reset link',
      description:
        'E-mails a link (valid 30 minutes) to the address if an active account signs in with it. The answer is the same 202 either ' +
        'way; requests are throttled per address and per account (429).',
      access: 'public',
      body: AccountEmailRequest,
      answers: { 202: MessageAnswerShape },
      errors: [429],
    },
    'POST /api/email-verification/preview': {
      summary: 'What a verification link confirms',
      description:
        "Reads a verification link without using it: the address and its `purpose` — `own` (the account's own address), `change` " +
        '(a new sign-in address staff entered: confirming needs the password) or `first` (the first address of a patient registered ' +
        'at the desk). An unknown, used or expired link, or one for an address no longer waiting, is 422 `verification_link_invalid`.',
      access: 'public',
      body: VerificationPreviewRequest,
      answers: { 200: VerificationPreviewShape },
    },
    'POST /api/email-verification': {
      summary: 'Confirm an e-mail address',
      description:
        "Uses a verification link: the address is verified, or becomes the sign-in address. For `change` the account's password is " +
        'required (422 `password_required` without it; a wrong one is 422 naming `password` and counts as a failed sign-in, 429 ' +
        'after too many). Refusals as the preview (`verification_link_invalid`).',
      access: 'public',
      body: VerificationRequest,
      answers: { 200: EmailAnswerShape },
      errors: [429],
    },
    'POST /api/user/email-verification': {
      summary: 'Send me a new verification link',
      description: "E-mails a new verification link to the signed-in user's address; a few an hour at most (429).",
      access: 'user',
      answers: { 200: EmailAnswerShape },
      errors: [400, 413, 429],
    },
    'POST /api/admin/password-resets': {
      summary: 'Issue a password reset link for a user',
      description:
        'For a user who cannot sign in: a one-time link (valid 30 minutes) the admin hands over; the admin never sees or chooses the ' +
        'new password, and an earlier unused link of the user stops working. No account with that e-mail → 404. Audited.',
      access: 'admin',
      body: AccountEmailRequest,
      answers: {
        201: ResetLinkShape,
      },
      errors: [404],
    },
    'GET /api/user/mfa': {
      summary: 'My two-step sign-in status',
      access: 'user',
      answers: { 200: ref('MfaStatus') },
    },
    'POST /api/user/mfa': {
      summary: 'Start adding an authenticator',
      description:
        'Admins and doctors only (others 403): a new authenticator secret and its QR code; it counts once its first code is confirmed ' +
        'at `POST /api/user/mfa/confirm`. Already on → 409 `mfa_enabled`.',
      access: 'user',
      answers: { 200: ref('MfaSetup') },
      errors: [400, 413, 409],
    },
    'POST /api/user/mfa/confirm': {
      summary: 'Turn on two-step sign-in',
      description:
        'The first code from the new authenticator turns it on; the answer holds ten recovery codes, shown this once. A wrong code ' +
        'is 422 naming `code`; no authenticator being added (or it is on already) is 409 `mfa_not_started`. Admins and doctors only.',
      access: 'user',
      body: MfaCodeRequest,
      answers: { 200: RecoveryCodesShape },
      errors: [409],
    },
    'POST /api/user/mfa/disable': {
      summary: 'Turn off two-step sign-in',
      description:
        'The password required (wrong → 422 naming `password`, 429 after too many). Refused while the clinic requires it for the ' +
        'role (409 `mfa_required`) or when it is not on (409 `mfa_not_enabled`).',
      access: 'user',
      body: PasswordRequest,
      answers: { 200: MessageAnswerShape },
      errors: [409, 429],
    },
    'POST /api/user/mfa/recovery-codes': {
      summary: 'Replace my recovery codes',
      description:
        'Ten new recovery codes in place of the old ones, the password required; 409 `mfa_not_enabled` when two-step sign-in is off.',
      access: 'user',
      body: PasswordRequest,
      answers: { 200: RecoveryCodesShape },
      errors: [409, 429],
    },
    'POST /api/admin/mfa-resets': {
      summary: "Remove a user's authenticator",
      description:
        'For a lost phone and no codes left: the user signs in with the password again. No account with that e-mail → 404; none to ' +
        'reset → 409 `mfa_not_enabled`. Audited.',
      access: 'admin',
      body: AccountEmailRequest,
      answers: { 200: EmailAnswerShape },
      errors: [404, 409],
    },
    'GET /api/admin/receptionists': {
      summary: 'List receptionists',
      description: 'Active ones first, then by name; `q` searches name and e-mail.',
      access: 'admin',
      query: pageQuery,
      answers: { 200: listOf('receptionists', ref('Staff')) },
    },
    'POST /api/admin/receptionists': {
      summary: 'Create a receptionist account',
      description:
        'With a first password the admin chooses; a taken e-mail is 409 `email_taken` naming `email`. Audited.',
      access: 'admin',
      body: NewStaffRequest,
      answers: { 201: ref('Staff') },
      errors: [409],
    },
    'DELETE /api/admin/receptionists/{id}': {
      summary: 'Deactivate a receptionist',
      description:
        'They can no longer sign in and their open sessions end at once. Unknown id (or not a receptionist) → 404. Audited.',
      access: 'admin',
      answers: { 200: DeactivatedShape },
    },
    'GET /api/admin/lab-technicians': {
      summary: 'List lab technicians',
      description: 'Active ones first, then by name; `q` searches name and e-mail.',
      access: 'admin',
      query: pageQuery,
      answers: { 200: listOf('lab_technicians', ref('Staff')) },
    },
    'POST /api/admin/lab-technicians': {
      summary: 'Create a lab technician account',
      description:
        'The lab role: the worklist, specimens and results, never a diagnosis or a bill. With a first password the admin chooses; a taken ' +
        'e-mail is 409 `email_taken` naming `email`. Audited.',
      access: 'admin',
      body: NewStaffRequest,
      answers: { 201: ref('Staff') },
      errors: [409],
    },
    'DELETE /api/admin/lab-technicians/{id}': {
      summary: 'Deactivate a lab technician',
      description:
        'They can no longer sign in and their open sessions end at once. Unknown id (or not a lab technician) → 404. Audited.',
      access: 'admin',
      answers: { 200: DeactivatedShape },
    },
    'GET /api/admin/nurses': {
      summary: 'List nurses',
      description: 'With their departments; active ones first, then by name; `q` searches name and e-mail.',
      access: 'admin',
      query: pageQuery,
      answers: { 200: listOf('nurses', ref('Staff')) },
    },
    'POST /api/admin/nurses': {
      summary: 'Create a nurse account',
      description:
        "The nurse role: the inpatients in the beds of their department, their vital signs, fluid balance and nursing notes; never a bill or a record's text. " +
        'With a first password the admin chooses; an unknown department is 422 naming `department_id`; a taken e-mail is 409 `email_taken` naming `email`. Audited.',
      access: 'admin',
      body: NewNurseRequest,
      answers: { 201: ref('Staff') },
      errors: [409],
    },
    'DELETE /api/admin/nurses/{id}': {
      summary: 'Deactivate a nurse',
      description:
        'They can no longer sign in and their open sessions end at once. Unknown id (or not a nurse) → 404. Audited.',
      access: 'admin',
      answers: { 200: DeactivatedShape },
    },
  },
};
