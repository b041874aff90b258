import type { PatientCardJson } from '../../../domain/records/records-shapes.ts';
import { ProfileCard } from '../../components/profile-card.tsx';
import { SearchedCardGrid } from '../../components/searched-card-grid.tsx';
import { useSearchedList } from '../../components/use-searched-list.ts';
import { endpoints, routes, withId } from '../../paths.ts';

export default function MyPatientsPage() {
  const searched = useSearchedList<PatientCardJson>(endpoints.doctor.patients, 'patients');
  return (
    <SearchedCardGrid
      title="Patient List"
      noun="patients"
      searchId="patient-search"
      searched={searched}
      renderCard={(patient) => (
        <ProfileCard
          key={patient.id}
          name={patient.name || 'No Name'}
          image={patient.photo}
          facts={[`Patient ID: ${patient.id}`, patient.phone || 'No Phone', patient.email || 'No Email']}
          link={{ href: withId(routes.doctor.patient, patient.id), label: 'View Profile' }}
        />
      )}
    />
  );
}
