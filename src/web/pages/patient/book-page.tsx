import { useState } from 'react';
import { useSearch } from 'wouter';
import type { AppointmentJson } from '../../../domain/scheduling/scheduling-shapes.ts';
import { apiPost } from '../../api.ts';
import { Alert } from '../../components/alert.tsx';
import { BookedAppointment } from '../../components/booked-appointment.tsx';
import { BookingForm } from '../../components/booking-form.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { formatDay } from '../../format.ts';
import { endpoints } from '../../paths.ts';

export default function BookPage() {
  // A doctor profile's "Book with this doctor" comes with the doctor chosen.
  const search = useSearch();
  const [presetDoctor] = useState(() => new URLSearchParams(search).get('doctor') ?? '');
  const { alert, setAlert, dismiss } = useAlert();
  const [booked, setBooked] = useState<AppointmentJson | null>(null);
  return (
    <>
      <PageHeader title="Select an Appointment" />
      <Alert message={alert} onDismiss={dismiss} />
      {booked && <BookedAppointment appointment={booked} />}
      <BookingForm
        presetDoctor={presetDoctor}
        submitLabel="Book"
        failureText="Booking failed. Please try again."
        setAlert={setAlert}
        submit={async (choice) => {
          setBooked(await apiPost<AppointmentJson>(endpoints.book, choice));
          return 'Appointment booked successfully!';
        }}
        joinWaitlist={async (doctorId, date) => {
          await apiPost(endpoints.patient.waitlist, { doctor_id: doctorId, from_date: date, to_date: date });
          return `You are on the waitlist for ${formatDay(date)}. If a time frees up, we will e-mail you.`;
        }}
      />
    </>
  );
}
