import { apiDelete } from '../api.ts';
import { success, type AlertMessage } from './alert.tsx';
import { useConfirm } from './confirm.tsx';
import type { RowAction } from './row-actions.tsx';
import { failureFor } from './use-alert.ts';

interface Named {
  id: number;
  name: string;
}

interface RowDeleteOptions<Row, Answer> {
  /** What a row is, singular and lower case: "disease", "room". */
  noun: string;
  path: (id: number) => string;
  setAlert: (message: AlertMessage) => void;
  onDeleted: (row: Row) => void;
  /** What to say when the server's answer tells more than "deleted", e.g. a doctor kept for their history. */
  outcome?: (answer: Answer) => string | undefined;
}

/** Deleting a table row once the user confirms, with the outcome in the page's alert. */
export function useRowDelete<Row extends Named, Answer = unknown>({
  noun,
  path,
  setAlert,
  onDeleted,
  outcome,
}: RowDeleteOptions<Row, Answer>) {
  const confirm = useConfirm();
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  return async (row: Row) => {
    if (!(await confirm({ message: `Are you sure you want to delete this ${noun}?`, confirmLabel: 'Delete' }))) return;
    try {
      const answer = await apiDelete<Answer>(path(row.id));
      setAlert(success(outcome?.(answer) ?? `${Noun} deleted successfully`));
      onDeleted(row);
    } catch (error) {
      console.error(`${noun} delete failed`, error);
      setAlert(failureFor(error, `Failed to delete ${noun}`));
    }
  };
}

/** The "Delete" action of a table row, named for the row it deletes. */
export const deleteAction = (name: string, onSelect: () => void): RowAction => ({
  label: 'Delete',
  name: `Delete ${name}`,
  onSelect,
  tone: 'danger',
});
