/**
 * An admin's help for a user who cannot sign in: a one-time link to set a new password (the admin never sees or
 * chooses it), and for staff, removing a lost authenticator.
 */
import { useState } from 'react';
import type { ResetLinkJson } from '../../domain/auth/password-use-cases.ts';
import { ApiError, apiPost } from '../api.ts';
import { endpoints } from '../paths.ts';
import { useConfirm } from './confirm.tsx';
import { Dialog } from './dialog.tsx';
import { useSubmit } from './use-submit.ts';
import { formatDateTime } from '../format.ts';

interface SignInHelpProps {
  name: string;
  email: string;
  /** Staff have an authenticator that may need removing. */
  staff?: boolean;
}

export function SignInHelpDialog({ name, email, staff = false, onClose }: SignInHelpProps & { onClose: () => void }) {
  const [link, setLink] = useState<(ResetLinkJson & { url: string }) | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const confirm = useConfirm();
  const { busy, run } = useSubmit('sign-in help');
  const fail = (error: unknown) =>
    setMessage(error instanceof ApiError ? error.message : 'That did not work. Please try again.');

  const makeLink = () =>
    run(
      async () => setLink(await apiPost<ResetLinkJson & { url: string }>(endpoints.admin.passwordResets, { email })),
      fail,
    );
  const resetMfa = async () => {
    if (
      !(await confirm({
        title: 'Reset two-step sign-in?',
        message: `${name} will sign in with the password alone and can set up a new authenticator.`,
        confirmLabel: 'Reset',
      }))
    )
      return;
    await run(async () => {
      await apiPost(endpoints.admin.mfaResets, { email });
      setMessage(`Two-step sign-in of ${name} was reset.`);
    }, fail);
  };

  return (
    <Dialog open title={`Sign-in help for ${name}`} onClose={onClose}>
      {message && <p role="status">{message}</p>}
      {link ? (
        <div className="reset-link">
          <p>
            Give this link to {name} in person or by a channel you trust. It sets a new password once, until{' '}
            {formatDateTime(link.expires_at)}, and signs {name} out everywhere.
          </p>
          <input
            className="reset-link-url"
            readOnly
            value={link.url}
            aria-label="Reset link"
            onFocus={(e) => e.currentTarget.select()}
          />
          <button type="button" className="button" onClick={() => void navigator.clipboard?.writeText(link.url)}>
            Copy link
          </button>
        </div>
      ) : (
        <div className="form-actions">
          <button type="button" className="button button-primary" disabled={busy} onClick={() => void makeLink()}>
            Make a password reset link
          </button>
          {staff && (
            <button type="button" className="button button-danger" disabled={busy} onClick={() => void resetMfa()}>
              Reset two-step sign-in
            </button>
          )}
        </div>
      )}
    </Dialog>
  );
}

/** The "Sign-in help" button and its dialog; a table row offers the dialog from its menu instead. */
export function SignInHelp(props: SignInHelpProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button button-small"
        onClick={() => setOpen(true)}
        aria-label={`Sign-in help for ${props.name}`}
      >
        Sign-in help
      </button>
      {open && <SignInHelpDialog {...props} onClose={() => setOpen(false)} />}
    </>
  );
}
