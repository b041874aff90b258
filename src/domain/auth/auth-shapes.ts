import { GenderShape, NamedShape, RoleShape, UserShape } from '../shared/shared-shapes.ts';
import {
  alwaysNull,
  array,
  boolean,
  component,
  date,
  dateTime,
  email,
  id,
  integer,
  nullable,
  object,
  oneOfValues,
  propertiesOf,
  ref,
  string,
  text,
  uri,
  type Static,
} from '../shared/wire-schema.ts';
import { CurrentPasswordText, NewPasswordText } from './passwords.ts';

// The accounts' requests and answers, written once (docs/architecture.md "The wire contract").

const personName = text(200, { rule: 'line', description: 'One line, no control characters' });
const newEmail = email({ maxLength: 254 });
const signInEmail = text(254);
const token = text(200);
const phone = text(40);
const birthdate = date('A real date after 1900-01-01 and before today');

/** A patient's details as sign-up, the desk and the profile forms read them (its date of birth: a rule beside). */
export const patientFields = { name: personName, email: newEmail, phone, birthdate, gender: ref(GenderShape) };

export const RegisterRequest = object({
  name: personName,
  email: newEmail,
  password: NewPasswordText,
  phone,
  birthdate,
  gender: ref(GenderShape),
});

export const SignInRequest = object(
  {
    email: signInEmail,
    password: CurrentPasswordText,
    remember: boolean({ description: 'Keep the session for 30 days (default: 12 hours)' }),
  },
  { optional: ['remember'] },
);

export const SecondStepRequest = object(
  {
    challenge: token,
    code: text(20, { min: 0, description: "The authenticator's current code (spaces ignored)" }),
    recovery_code: text(40, { min: 0, description: 'One unused recovery code, when the authenticator is not at hand' }),
  },
  { optional: ['code', 'recovery_code'] },
);

export const ChallengeRequest = object({ challenge: token });

export const PasswordChangeRequest = object({ current_password: CurrentPasswordText, new_password: NewPasswordText });

export const PasswordResetRequest = object({ token, password: NewPasswordText });

/** An account named by its sign-in address: a reset link asked for, an admin's help with a sign-in. */
export const AccountEmailRequest = object({ email: signInEmail });

export const VerificationPreviewRequest = object({ token });

export const VerificationRequest = object({ token, password: CurrentPasswordText }, { optional: ['password'] });

export const MfaCodeRequest = object({ code: text(20) });

export const PasswordRequest = object({ password: CurrentPasswordText });

/** A patient the desk registers in person; the e-mail may wait for them to confirm it, or be none. */
export const WalkInRequest = object({ ...patientFields, email: nullable(newEmail) }, { optional: ['email'] });

export const WalkInShape = object({
  patient: object({
    id: integer(),
    name: string(),
    email: alwaysNull('None until the patient confirms `pending_email`'),
    pending_email: nullable(email()),
    phone: string(),
    birthdate: date(),
    gender: ref(GenderShape),
  }),
});
export type WalkInJson = Static<typeof WalkInShape>;

export const NewStaffRequest = object({ name: personName, email: newEmail, password: NewPasswordText });
export const NewNurseRequest = object({ ...propertiesOf(NewStaffRequest), department_id: id() });

/** A receptionist or lab technician deactivated: they can no longer sign in. */
export const DeactivatedShape = object({ id: integer(), active: boolean({ const: false }) });

export const MessageAnswerShape = object({ message: string() });
export type MessageAnswerJson = Static<typeof MessageAnswerShape>;

export const EmailAnswerShape = object({ email: email() });

export const RecoveryCodesShape = object({
  recovery_codes: array(string(), { minItems: 10, maxItems: 10, description: 'Shown this once; each works once' }),
});

const sessionFields = {
  user: ref(UserShape),
  role: ref(RoleShape),
  persistent: boolean({ description: 'Remembered: the session lasts 30 days instead of 12 hours' }),
  expires_at: dateTime(),
};
const bearerToken = string({ description: 'The bearer token: send it as `Authorization: Bearer <token>`' });
const newRecoveryCodes = array(string(), {
  minItems: 10,
  maxItems: 10,
  description: 'Only when this sign-in turned on a new authenticator: shown this once',
});

/** A session as a sign-in answers it: with its bearer token for API clients. */
export const SessionShape = component('Session', object({ ...sessionFields, token: bearerToken }));
export type SessionJson = Static<typeof SessionShape>;

/** The same without the token, which went into the browser's cookie. */
export const BrowserSessionShape = component('BrowserSession', object(sessionFields));

/** A second step's session: with the recovery codes when it turned on a new authenticator. */
export const SecondStepSessionShape = object(
  { ...sessionFields, token: bearerToken, recovery_codes: newRecoveryCodes },
  { optional: ['recovery_codes'] },
);
export const BrowserSecondStepSessionShape = object(
  { ...sessionFields, recovery_codes: newRecoveryCodes },
  { optional: ['recovery_codes'] },
);

export const MfaChallengeShape = component(
  'MfaChallenge',
  object({
    mfa: oneOfValues(
      ['verify', 'enrol'],
      '`verify`: send a code from the authenticator; `enrol`: the role requires one and none is set up yet (see `POST /api/login/mfa/setup`)',
    ),
    challenge: string({
      description: 'Send it with the code to `/api/login/mfa` or `/api/session/mfa`; it works for 10 minutes',
    }),
  }),
);
export type MfaChallengeJson = Static<typeof MfaChallengeShape>;

export const MfaSetupShape = component(
  'MfaSetup',
  object({
    secret: string({ description: 'The base32 secret, to type where a camera is not at hand' }),
    otpauth_uri: string({ description: 'The `otpauth://totp/…` URI the QR code holds' }),
    qr_svg: string({ description: 'The QR code as an SVG document' }),
  }),
);
export type MfaSetupJson = Static<typeof MfaSetupShape>;

export const MfaStatusShape = component(
  'MfaStatus',
  object({
    enabled: boolean(),
    required: boolean({ description: 'The clinic requires a second factor for this role' }),
    available: boolean({ description: 'Whether this role may use one: admins and doctors' }),
    recovery_codes_left: integer({ minimum: 0 }),
  }),
);
export type MfaStatusJson = Static<typeof MfaStatusShape>;

export const StaffShape = component(
  'Staff',
  object(
    {
      id: integer(),
      name: string(),
      email: email(),
      role: oneOfValues(['reception', 'lab', 'nurse']),
      active: boolean(),
      created_at: dateTime(),
      department: ref(NamedShape),
    },
    { optional: ['department'] },
  ),
);
export type StaffJson = Static<typeof StaffShape>;

export const VerificationPreviewShape = object({ email: email(), purpose: oneOfValues(['own', 'change', 'first']) });
export type VerificationPreviewJson = Static<typeof VerificationPreviewShape>;

/** A reset link an admin hands over; the token goes into the link only, the server keeps its digest. */
export const ResetLinkShape = object({
  token: string(),
  expires_at: dateTime(),
  user: object({ name: string(), email: email(), role: ref(RoleShape) }),
  url: uri(),
});
