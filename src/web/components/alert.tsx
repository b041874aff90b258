/**
 * The one in-page message: a role="alert" banner with the spec's text, dismissible. Each new message takes the
 * focus, so a keyboard or screen-reader user lands on an action's result and a phone scrolls it into view.
 */
import { useEffect, useRef } from 'react';
import { CloseIcon } from './icons.tsx';

export interface AlertMessage {
  kind: 'success' | 'error' | 'info';
  text: string;
}

export const success = (text: string): AlertMessage => ({ kind: 'success', text });
export const failure = (text: string): AlertMessage => ({ kind: 'error', text });
export const info = (text: string): AlertMessage => ({ kind: 'info', text });

interface AlertProps {
  message: AlertMessage | null;
  onDismiss: () => void;
}

export function Alert({ message, onDismiss }: AlertProps) {
  const messageRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message) messageRef.current?.focus();
  }, [message]);

  // The live region stays mounted so screen readers announce each new message.
  return (
    <div className="alert-region" role="alert">
      {message && (
        <div ref={messageRef} className={`alert alert-${message.kind}`} tabIndex={-1}>
          <p>{message.text}</p>
          <button type="button" className="icon-button" onClick={onDismiss} aria-label="Dismiss message">
            <CloseIcon />
          </button>
        </div>
      )}
    </div>
  );
}
