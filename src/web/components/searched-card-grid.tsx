import type { ReactNode } from 'react';
import { PageHeader } from './page-header.tsx';
import type { SearchedList } from './use-searched-list.ts';

interface SearchedCardGridProps<Row> {
  title: string;
  /** What is searched, plural and lower case: "patients", "doctors". */
  noun: string;
  searchId: string;
  searched: SearchedList<Row>;
  renderCard: (row: Row) => ReactNode;
}

/** A page of cards under a search box, with "Show more" while rows remain. */
export function SearchedCardGrid<Row>({ title, noun, searchId, searched, renderCard }: SearchedCardGridProps<Row>) {
  const { search, setSearch, list, showMore } = searched;
  return (
    <>
      <PageHeader title={title}>
        <label htmlFor={searchId} className="visually-hidden">
          Search {noun}
        </label>
        <input id={searchId} type="search" placeholder={`Search ${noun}…`} value={search} onChange={(e) => setSearch(e.target.value)} />
      </PageHeader>
      {list.rows.length === 0 ? <p className="empty">No {noun} found.</p> : <ul className="card-grid">{list.rows.map(renderCard)}</ul>}
      {list.rows.length < list.total && (
        <button type="button" className="button show-more" onClick={showMore}>
          Show more
        </button>
      )}
    </>
  );
}
