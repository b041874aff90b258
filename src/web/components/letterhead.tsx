/** The clinic's letterhead on a printout (a lab report): its name, address and phone, as GET /api/clinic gives them. */
import type { ClinicJson } from '../../domain/shared/shared-shapes.ts';

/** `clinic` as its page fetched it (null until then): a page on screen waits for it, so the lines do not push it down. */
export function Letterhead({
  title,
  reference,
  clinic,
}: {
  title: string;
  reference: string;
  clinic: ClinicJson | null;
}) {
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
