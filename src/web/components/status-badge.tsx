import { capitalize } from '../format.ts';

/** An appointment or payment status as a coloured label: 'Cancelled', 'Completed', 'Paid', … */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{capitalize(status)}</span>;
}
