/** Prints the page; the print stylesheet leaves out what is marked no-print, this button with it. */
export function PrintButton({ label = 'Print' }: { label?: string }) {
  return (
    <button type="button" className="button button-small button-primary no-print" onClick={() => window.print()}>
      {label}
    </button>
  );
}
