import { useEffect, useState } from 'react';
import { fetchList, type ListPage } from '../../api.ts';
import type { DoctorPatient } from '../../api-types.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { ProfileCard } from '../../components/profile-card.tsx';
import { useDelayed } from '../../components/use-delayed.ts';
import { endpoints, routes, withId } from '../../paths.ts';

const CARDS_PER_PAGE = 12;
const SEARCH_DELAY_MS = 400;

export default function MyPatientsPage() {
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [pages, setPages] = useState(1);
  const [list, setList] = useState<ListPage<DoctorPatient>>({ rows: [], total: 0 });

  useDelayed(search, SEARCH_DELAY_MS, (text) => {
    setQ(text.trim());
    setPages(1);
  });

  useEffect(() => {
    let current = true;
    fetchList<DoctorPatient>(endpoints.doctor.patients, 'patients', { q, page: 1, per_page: pages * CARDS_PER_PAGE })
      .then((next) => current && setList(next))
      .catch((error: unknown) => console.error('patients fetch failed', error));
    return () => {
      current = false;
    };
  }, [q, pages]);

  return (
    <>
      <PageHeader title="Patient List">
        <label htmlFor="patient-search" className="visually-hidden">
          Search patients
        </label>
        <input id="patient-search" type="search" placeholder="Search patients…" value={search} onChange={(e) => setSearch(e.target.value)} />
      </PageHeader>
      {list.rows.length === 0 ? (
        <p className="empty">No patients found.</p>
      ) : (
        <ul className="card-grid">
          {list.rows.map((patient) => (
            <ProfileCard
              key={patient.id}
              name={patient.name || 'No Name'}
              image={patient.photo}
              facts={[`Patient ID: ${patient.id}`, patient.phone || 'No Phone', patient.email || 'No Email']}
              link={{ href: withId(routes.doctor.patient, patient.id), label: 'View Profile' }}
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
