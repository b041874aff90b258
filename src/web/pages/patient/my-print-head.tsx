/** The head of what a patient prints of their own (records, results): the letterhead and themselves, on paper only. */
import type { MyProfileJson } from '../../../domain/patients/patients-shapes.ts';
import { PrintHead, useClinic } from '../../components/printout.tsx';
import { useFetched } from '../../components/use-fetched.ts';
import { endpoints } from '../../paths.ts';

export function MyPrintHead({ title }: { title: string }) {
  const profile = useFetched<MyProfileJson>(endpoints.patient.profile, 'profile');
  const clinic = useClinic();
  return (
    <div className="print-only">
      <PrintHead
        title={title}
        clinic={clinic}
        patient={profile ? { ...profile.patient, birthDate: profile.patient.birthdate } : undefined}
      />
    </div>
  );
}
