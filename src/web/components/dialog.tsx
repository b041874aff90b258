/**
 * The one modal dialog: a native <dialog> opened with showModal(), so the page behind is inert, focus stays
 * inside and Escape closes it. Rendered into <body> so a printed receipt can hide the page around it.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { CloseIcon } from './icons.tsx';

interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** The buttons under the body. */
  actions?: ReactNode;
  className?: string;
}

export function Dialog({ open, title, onClose, children, actions, className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    ref.current?.showModal();
    return () => opener?.focus();
  }, [open]);

  if (!open) return null;
  return createPortal(
    <dialog
      ref={ref}
      className={className ? `dialog ${className}` : 'dialog'}
      aria-labelledby={titleId}
      aria-modal="true"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button no-print" onClick={onClose} aria-label="Close">
          <CloseIcon />
        </button>
      </header>
      <div className="dialog-body">{children}</div>
      {actions && <footer className="dialog-actions no-print">{actions}</footer>}
    </dialog>,
    document.body,
  );
}
