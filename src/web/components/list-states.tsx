/** What a list or a panel shows before its data: that it is loading, or that it could not load with a way to try again. */
import type { ReactNode } from 'react';
import type { Loaded } from './use-fetched.ts';

/** Says, for assistive technology and the eye, that `what` is on its way (the skeleton beside it is decoration). */
export function LoadingStatus({ what, hidden = false }: { what: string; hidden?: boolean }) {
  return (
    <p className={hidden ? 'visually-hidden' : 'list-status'} role="status">
      Loading {what.toLowerCase()}…
    </p>
  );
}

export function LoadFailure({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <div className="list-failure" role="alert">
      <p>{what} could not be loaded.</p>
      <button type="button" className="button button-small" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}

interface PanelBodyProps<T> {
  loaded: Loaded<T>;
  retry: () => void;
  /** What loads, capitalised: "Statistics". */
  what: string;
  /** The loaded layout with placeholders, as large as the real thing, so nothing moves when the data comes. */
  skeleton: ReactNode;
  children: (value: T) => ReactNode;
}

/** A card's or a page's body: its skeleton while loading (announced, not shown, as loading), the failure with Retry, or the data. */
export function PanelBody<T>({ loaded, retry, what, skeleton, children }: PanelBodyProps<T>) {
  if (loaded.state === 'failed') return <LoadFailure what={what} onRetry={retry} />;
  if (loaded.state === 'loading')
    return (
      <>
        <div className="panel-skeleton" aria-hidden="true">
          {skeleton}
        </div>
        <LoadingStatus what={what} hidden />
      </>
    );
  return <>{children(loaded.value)}</>;
}
