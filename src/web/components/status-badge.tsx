import { capitalize } from '../format.ts';

/** An appointment or payment status as a coloured label: 'Cancelled', 'Checked in', 'Paid', … */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return <span className={`badge badge-${status}`}>{label ?? capitalize(status.replaceAll('_', ' '))}</span>;
}
