import type { FormEvent, ReactNode } from 'react';
import type { FieldErrors } from '../../domain/shared/errors.ts';
import { Alert, success, type AlertMessage } from './alert.tsx';
import { Dialog } from './dialog.tsx';
import { SubmitRow } from './submit-row.tsx';
import { useAlert } from './use-alert.ts';
import { hasFieldErrors, useSubmit } from './use-submit.ts';
import { wardFailure } from './ward.ts';

interface ActionDialogProps {
  title: string;
  /** The form's accessible name. */
  label: string;
  submitLabel: string;
  /** Sends the form and answers what the page's alert says once it went through. */
  send: () => Promise<string>;
  /** What the dialog says when the action failed for no reason the server gave. */
  failureText: string;
  onClose: () => void;
  onDone: (message: AlertMessage) => void;
  /** The fields, given the server's problems with them. */
  children: (errors: FieldErrors) => ReactNode;
  wide?: boolean;
}

/**
 * A ward action asked for in a dialog: its fields, a submit that stays busy while it runs, field problems by the
 * fields and a refusal in the dialog's own alert; once it went through, the dialog hands its message to the page.
 */
export function ActionDialog({
  title,
  label,
  submitLabel,
  send,
  failureText,
  onClose,
  onDone,
  children,
  wide = false,
}: ActionDialogProps) {
  const { alert, setAlert, dismiss } = useAlert();
  const { busy, errors, run } = useSubmit(label);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    return run(
      async () => onDone(success(await send())),
      (error) => setAlert(hasFieldErrors(error) ? null : wardFailure(error, failureText)),
    );
  };

  return (
    <Dialog open title={title} onClose={onClose} className={wide ? 'dialog-wide' : undefined}>
      <Alert message={alert} onDismiss={dismiss} />
      <form className="form" onSubmit={submit} aria-label={label}>
        {children(errors)}
        <SubmitRow label={submitLabel} busy={busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
