/** A dialog form's last row: its submit, disabled while the form is being sent, and Cancel. */
export function SubmitRow({ label, busy, onCancel }: { label: string; busy: boolean; onCancel: () => void }) {
  return (
    <div className="form-row">
      <button type="submit" className="button button-primary" disabled={busy}>
        {label}
      </button>
      <button type="button" className="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
