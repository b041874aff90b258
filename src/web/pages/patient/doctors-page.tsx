import type { SchemaBookableDoctor as BookableDoctor } from '../../api-wire.gen.ts';
import { ProfileCard } from '../../components/profile-card.tsx';
import { SearchedCardGrid } from '../../components/searched-card-grid.tsx';
import { useSearchedList } from '../../components/use-searched-list.ts';
import { formatTime, formatDay } from '../../format.ts';
import { bookWithDoctor, endpoints, routes, withId } from '../../paths.ts';

/** The doctor's first free time, as the list answered it (nothing when the answer left it out). */
function nextFreeFact(nextFree: BookableDoctor['next_free']) {
  if (nextFree === undefined) return undefined;
  return (
    <span className="profile-card-next">
      {nextFree
        ? `Next free: ${formatDay(nextFree.date)}, ${formatTime(nextFree.start_time)}`
        : 'No free time slot in the next 60 days'}
    </span>
  );
}

export default function DoctorsPage() {
  const searched = useSearchedList<BookableDoctor>(endpoints.patient.doctors, 'doctors');
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
          initialsFallback
          facts={[
            doctor.specialization?.name ?? 'General practice',
            doctor.department?.name,
            nextFreeFact(doctor.next_free),
          ]}
          link={{ href: withId(routes.patient.doctorProfile, doctor.id), label: 'Profile' }}
          action={doctor.next_free !== null ? { href: bookWithDoctor(doctor.id), label: 'Book' } : undefined}
        />
      )}
    />
  );
}
