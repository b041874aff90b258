import type { Doctor } from '../../../domain/catalogue/catalogue.ts';
import { ProfileCard } from '../../components/profile-card.tsx';
import { SearchedCardGrid } from '../../components/searched-card-grid.tsx';
import { useSearchedList } from '../../components/use-searched-list.ts';
import { endpoints, routes, withId } from '../../paths.ts';

export default function DoctorsPage() {
  const searched = useSearchedList<Doctor>(endpoints.patient.doctors, 'doctors');
  return (
    <SearchedCardGrid
      title="Doctor List"
      noun="doctors"
      searchId="doctor-search"
      searched={searched}
      renderCard={(doctor) => (
        <ProfileCard
          key={doctor.id}
          name={doctor.name}
          image={doctor.image ?? doctor.user.profile_image}
          facts={[doctor.specialization?.name ?? 'General practice', doctor.department?.name]}
          link={{ href: withId(routes.patient.doctorProfile, doctor.id), label: 'Profile' }}
        />
      )}
    />
  );
}
