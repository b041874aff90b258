import { useState } from 'react';
import { fetchList } from '../api.ts';
import { useDelayed } from './use-delayed.ts';
import { useListRequest, type ListRequest } from './use-list-request.ts';

const ROWS_PER_STEP = 12;
const SEARCH_DELAY_MS = 400;

export interface SearchedList<Row> extends ListRequest<Row> {
  search: string;
  setSearch: (text: string) => void;
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

  useDelayed(search, SEARCH_DELAY_MS, (text) => {
    setQ(text.trim());
    setPages(1);
  });

  const request = useListRequest(itemsKey, JSON.stringify([path, q, pages]), (signal) =>
    fetchList<Row>(path, itemsKey, { q, page: 1, per_page: pages * ROWS_PER_STEP }, signal),
  );

  return { ...request, search, setSearch, showMore: () => setPages(pages + 1) };
}
