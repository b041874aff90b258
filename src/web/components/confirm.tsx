/**
 * Confirmations as a promise: `if (await confirm({ message })) …`. One ConfirmProvider in the signed-in shell
 * renders the Dialog for every page.
 */
import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { Dialog } from './dialog.tsx';

export interface ConfirmRequest {
  message: string;
  title?: string;
  confirmLabel?: string;
  cancelLabel?: string;
}

type Confirm = (request: ConfirmRequest) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const resolveRef = useRef<(answer: boolean) => void>(undefined);

  const confirm = useCallback<Confirm>(
    (next) =>
      new Promise<boolean>((resolve) => {
        resolveRef.current?.(false);
        resolveRef.current = resolve;
        setRequest(next);
      }),
    [],
  );

  const answer = (confirmed: boolean) => {
    resolveRef.current?.(confirmed);
    resolveRef.current = undefined;
    setRequest(null);
  };

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <Dialog
        open={request !== null}
        title={request?.title ?? 'Please confirm'}
        onClose={() => answer(false)}
        className="dialog-confirm"
        actions={
          <>
            <button type="button" className="button button-secondary" onClick={() => answer(false)}>
              {request?.cancelLabel ?? 'Cancel'}
            </button>
            <button type="button" className="button button-danger" onClick={() => answer(true)}>
              {request?.confirmLabel ?? 'Yes'}
            </button>
          </>
        }
      >
        <p>{request?.message}</p>
      </Dialog>
    </ConfirmContext.Provider>
  );
}

export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm needs a ConfirmProvider');
  return confirm;
}
