import { useEffect, useState } from 'react';
import { fetchList } from '../api.ts';
import { ALL } from './use-alert.ts';

/**
 * Every row of a short catalogue list (doctors, departments, rooms…) for a select, once `wanted`; a failed fetch
 * is only logged and leaves the choice empty.
 */
export function useAllRows<Row>(path: string, itemsKey: string, wanted = true): Row[] {
  const [rows, setRows] = useState<Row[]>([]);
  useEffect(() => {
    if (!wanted) return;
    fetchList<Row>(path, itemsKey, ALL)
      .then((list) => setRows(list.rows))
      .catch((error: unknown) => console.error(`${itemsKey} fetch failed`, error));
  }, [path, itemsKey, wanted]);
  return rows;
}
