import { useEffect, useState } from 'react';
import { fetchList, type ListPage } from '../../api.ts';
import type { Doctor } from '../../api-types.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { ProfileCard } from '../../components/profile-card.tsx';
import { useDelayed } from '../../components/use-delayed.ts';
import { endpoints, routes, withId } from '../../paths.ts';

const CARDS_PER_PAGE = 12;
const SEARCH_DELAY_MS = 400;

export default function DoctorsPage() {
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [pages, setPages] = useState(1);
  const [list, setList] = useState<ListPage<Doctor>>({ rows: [], total: 0 });

  useDelayed(search, SEARCH_DELAY_MS, (text) => {
    setQ(text.trim());
    setPages(1);
  });

  // "Show more" widens the one page asked for, so the grid is always a single consistent answer.
  useEffect(() => {
    let current = true;
    fetchList<Doctor>(endpoints.patient.doctors, 'doctors', { q, page: 1, per_page: pages * CARDS_PER_PAGE })
      .then((next) => current && setList(next))
      .catch((error: unknown) => console.error('doctors fetch failed', error));
    return () => {
      current = false;
    };
  }, [q, pages]);

  return (
    <>
      <PageHeader title="Doctor List">
        <label htmlFor="doctor-search" className="visually-hidden">
          Search doctors
        </label>
        <input id="doctor-search" type="search" placeholder="Search doctors…" value={search} onChange={(e) => setSearch(e.target.value)} />
      </PageHeader>
      {list.rows.length === 0 ? (
        <p className="empty">No doctors found.</p>
      ) : (
        <ul className="card-grid">
          {list.rows.map((doctor) => (
            <ProfileCard
              key={doctor.id}
              name={doctor.name}
              image={doctor.image ?? doctor.user.profile_image}
              facts={[doctor.specialization?.name ?? 'General practice', doctor.department?.name]}
              link={{ href: withId(routes.patient.doctorProfile, doctor.id), label: 'Profile' }}
            />
          ))}
        </ul>
      )}
      {list.rows.length < list.total && (
        <button type="button" className="button show-more" onClick={() => setPages(pages + 1)}>
          Show more
        </button>
      )}
    </>
  );
}
