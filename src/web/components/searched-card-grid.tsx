import type { ReactNode } from 'react';
import { capitalize } from '../format.ts';
import { LoadFailure, LoadingStatus } from './list-states.tsx';
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

/** Enough placeholder cards to fill the first row on a desktop while the first answer is on its way. */
const PLACEHOLDER_CARDS = 4;

/** A page of cards under a search box, with "Show more" while rows remain. */
export function SearchedCardGrid<Row>({ title, noun, searchId, searched, renderCard }: SearchedCardGridProps<Row>) {
  const { search, setSearch, list, loading, failed, retry, showMore } = searched;
  return (
    <>
      <PageHeader title={title}>
        <label htmlFor={searchId} className="visually-hidden">
          Search {noun}
        </label>
        <input
          id={searchId}
          type="search"
          placeholder={`Search ${noun}…`}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </PageHeader>
      {failed ? (
        <LoadFailure what={capitalize(noun)} onRetry={retry} />
      ) : list === null ? (
        <>
          <ul className="card-grid" aria-hidden="true">
            {Array.from({ length: PLACEHOLDER_CARDS }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity and never reorder
              <li key={index} className="profile-card skeleton-card" />
            ))}
          </ul>
          <LoadingStatus what={noun} />
        </>
      ) : list.rows.length === 0 ? (
        <p className="empty">No {noun} found.</p>
      ) : (
        <ul className="card-grid" aria-busy={loading}>
          {list.rows.map(renderCard)}
        </ul>
      )}
      {list && list.rows.length < list.total && (
        <button type="button" className="button show-more" onClick={showMore}>
          Show more
        </button>
      )}
    </>
  );
}
