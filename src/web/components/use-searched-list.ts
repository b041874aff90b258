import { useEffect, useState } from 'react';
import { EMPTY_LIST, fetchList, type ListPage } from '../api.ts';
import { useDelayed } from './use-delayed.ts';
import { useLatestRequest } from './use-latest-request.ts';

const ROWS_PER_STEP = 12;
const SEARCH_DELAY_MS = 400;

export interface SearchedList<Row> {
  search: string;
  setSearch: (text: string) => void;
  list: ListPage<Row>;
  showMore: () => void;
}

/**
 * A list searched as the user types (debounced) that grows by "Show more".
 * "Show more" widens the one page asked for, so the list is always a single consistent answer.
 */
export function useSearchedList<Row>(path: string, itemsKey: string): SearchedList<Row> {
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [pages, setPages] = useState(1);
  const [list, setList] = useState<ListPage<Row>>(EMPTY_LIST);
  const latest = useLatestRequest();

  useDelayed(search, SEARCH_DELAY_MS, (text) => {
    setQ(text.trim());
    setPages(1);
  });

  useEffect(() => {
    latest.start(
      (signal) => fetchList<Row>(path, itemsKey, { q, page: 1, per_page: pages * ROWS_PER_STEP }, signal),
      setList,
      (error) => console.error(`${itemsKey} fetch failed`, error),
    );
  }, [latest, path, itemsKey, q, pages]);

  return { search, setSearch, list, showMore: () => setPages(pages + 1) };
}
