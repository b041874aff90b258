/** Adding an authenticator: scan the QR code (or type the secret), then prove it with its first code. */
import { useState, type FormEvent } from 'react';
import type { MfaSetupJson } from '../../domain/auth/mfa-use-cases.ts';
import { Field } from './field.tsx';

interface MfaEnrolmentProps {
  setup: MfaSetupJson;
  busy: boolean;
  errors?: string[];
  onCode: (code: string) => void;
}

export function MfaEnrolment({ setup, busy, errors, onCode }: MfaEnrolmentProps) {
  const [code, setCode] = useState('');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    onCode(code);
  };
  return (
    <form className="form mfa-enrolment" onSubmit={onSubmit}>
      <p>
        Scan this code with an authenticator app (such as Google Authenticator, Microsoft Authenticator or 1Password).
      </p>
      <img
        className="mfa-qr"
        src={`data:image/svg+xml;utf8,${encodeURIComponent(setup.qr_svg)}`}
        alt="QR code for your authenticator app"
        width={200}
        height={200}
      />
      <p>
        Can't scan it? Enter this key instead:{' '}
        <code className="mfa-secret">{setup.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
      </p>
      <OneTimeCodeField value={code} onChange={setCode} errors={errors} />
      <button type="submit" className="button button-primary" disabled={busy}>
        Turn on two-step sign-in
      </button>
    </form>
  );
}

export function OneTimeCodeField({
  value,
  onChange,
  errors,
}: {
  value: string;
  onChange: (code: string) => void;
  errors?: string[];
}) {
  return (
    <Field label="Code from your authenticator" errors={errors}>
      {(control) => (
        <input
          {...control}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9 ]{6,7}"
          maxLength={7}
          required
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

/** The recovery codes, shown once: each signs in once when the authenticator is not at hand. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="recovery-codes">
      <p>
        Keep these recovery codes somewhere safe, away from your phone. Each one signs you in once if you lose your
        authenticator. They are shown only now.
      </p>
      <ul className="recovery-code-list" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="form-actions">
        <button type="button" className="button" onClick={() => void navigator.clipboard?.writeText(codes.join('\n'))}>
          Copy codes
        </button>
        <button type="button" className="button button-primary" onClick={onDone}>
          I have saved them
        </button>
      </div>
    </div>
  );
}
