/** What a list shows before its rows: that it is loading, or that it could not load with a way to try again. */

/** Says, for assistive technology and the eye, that `what` is on its way (the skeleton beside it is decoration). */
export function LoadingStatus({ what }: { what: string }) {
  return (
    <p className="list-status" role="status">
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
