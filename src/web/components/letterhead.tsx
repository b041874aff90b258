/** The clinic's letterhead on a printout (a lab report): its name, address and phone, as GET /api/clinic gives them. */
import type { ClinicJson } from '../../domain/shared/shared-shapes.ts';
import { endpoints } from '../paths.ts';
import { useFetched } from './use-fetched.ts';

export function Letterhead({ title, reference }: { title: string; reference: string }) {
  const clinic = useFetched<ClinicJson>(endpoints.clinic, 'clinic');
  return (
    <header className="receipt-header letterhead">
      <address className="receipt-from">
        <span className="receipt-clinic">{clinic?.name ?? ''}</span>
        {clinic?.address && <span>{clinic.address}</span>}
        {clinic?.phone && <span>Phone: {clinic.phone}</span>}
      </address>
      <p className="receipt-kind">
        {title}
        <span>{reference}</span>
      </p>
    </header>
  );
}
