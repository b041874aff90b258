import { Fragment, useState } from 'react';
import { useParams, useSearch } from 'wouter';
import type { BillingJson, PaymentResult } from '../../../domain/billing/billing-shapes.ts';
import type { DeskPatientJson } from '../../../domain/patients/patients-shapes.ts';
import { apiPost, fetchList, type ListQuery } from '../../api.ts';
import { AdjustDialog } from '../../components/adjust-dialog.tsx';
import { Alert, failure, success } from '../../components/alert.tsx';
import { BookingForm } from '../../components/booking-form.tsx';
import { BillTable } from '../../components/bill-table.tsx';
import { DeskAppointments } from '../../components/desk-appointments.tsx';
import { EditPatientDialog } from '../../components/edit-patient-dialog.tsx';
import { LabOrderCosts } from '../../components/lab-order-costs.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { DESK_METHODS, PayDialog } from '../../components/pay-dialog.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useFetched, useSavedOver } from '../../components/use-fetched.ts';
import { capitalize, formatDate, formatDay } from '../../format.ts';
import { endpoints } from '../../paths.ts';

/** One patient at the desk: their details and no-shows, their appointments to book and change, their bills to take payment for. */
export default function DeskPatientPage() {
  const { id = '' } = useParams<{ id: string }>();
  const { alert, setAlert, dismiss } = useAlert();
  // Registering a walk-in links here with ?book=1, the booking form open.
  const [booking, setBooking] = useState(new URLSearchParams(useSearch()).has('book'));
  const [booked, setBooked] = useState(0);
  const [paying, setPaying] = useState<BillingJson | null>(null);
  const [paid, setPaid] = useState(0);
  const [adjusting, setAdjusting] = useState<BillingJson | null>(null);
  const [patient, setEdited] = useSavedOver(
    useFetched<{ patient: DeskPatientJson }>(endpoints.desk.patient(id), 'patient')?.patient ?? null,
  );
  const [editing, setEditing] = useState(false);

  const loadBills = (query: ListQuery, signal: AbortSignal) =>
    fetchList<BillingJson>(endpoints.desk.patientBills(id), 'billings', query, signal);

  return (
    <>
      <PageHeader title={patient?.name ?? 'Patient'} stacked>
        <button type="button" className="button" disabled={!patient} onClick={() => setEditing(true)}>
          {patient?.email === null ? 'Edit details or add e-mail' : 'Edit details'}
        </button>
        <button
          type="button"
          className="button button-primary"
          aria-expanded={booking}
          aria-controls="desk-booking"
          onClick={() => setBooking(!booking)}
        >
          {booking ? 'Hide Booking' : 'Book Appointment'}
        </button>
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      {/* Until the patient arrives, blank lines hold the place of their details, so the lists below stay put. */}
      {patient === null && (
        // biome-ignore lint/a11y/noAriaHiddenOnFocusable: placeholder lines hold nothing focusable
        <dl className="details card" aria-hidden="true">
          {Array.from({ length: 5 }, (_, line) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity and never reorder
            <Fragment key={line}>
              <dt>{'\u00a0'}</dt>
              <dd />
            </Fragment>
          ))}
        </dl>
      )}
      {patient && (
        <dl className="details card">
          <dt>Email</dt>
          <dd>{patient.email ?? 'None: the patient cannot sign in and gets no e-mail'}</dd>
          {patient.pending_email && (
            <>
              <dt>New e-mail</dt>
              <dd>
                {patient.pending_email}: waiting for the patient to confirm it
                {patient.email ? '; the address above stays in use until then' : ''}
              </dd>
            </>
          )}
          <dt>Phone</dt>
          <dd>{patient.phone || '—'}</dd>
          <dt>Birth date</dt>
          <dd>{patient.birthdate ? formatDate(patient.birthdate) : '—'}</dd>
          <dt>Gender</dt>
          <dd>{patient.gender ? capitalize(patient.gender) : '—'}</dd>
          <dt>No-shows</dt>
          <dd>{patient.no_shows}</dd>
        </dl>
      )}
      {patient && editing && (
        <EditPatientDialog
          patient={patient}
          path={endpoints.desk.patient(patient.id)}
          onSaved={({ name, email, pending_email, phone, birthdate, gender }, message) => {
            setEdited({ ...patient, name, email, pending_email, phone, birthdate, gender });
            setEditing(false);
            setAlert(message);
          }}
          onClose={() => setEditing(false)}
        />
      )}
      <div id="desk-booking" hidden={!booking}>
        {booking && (
          <BookingForm
            submitLabel="Book for this patient"
            failureText="Booking failed. Please try again."
            setAlert={setAlert}
            submit={async (choice) => {
              await apiPost(endpoints.desk.appointments, { ...choice, patient_id: Number(id) });
              return 'Appointment booked successfully!';
            }}
            onDone={() => setBooked((n) => n + 1)}
            joinWaitlist={
              // A waitlist offer comes by e-mail, so a patient without one is not offered the waitlist.
              patient?.email
                ? async (doctorId, date) => {
                    await apiPost(endpoints.waitlist, {
                      patient_id: Number(id),
                      doctor_id: doctorId,
                      from_date: date,
                      to_date: date,
                    });
                    return `The patient is on the waitlist for ${formatDay(date)}. If a time frees up, they get an e-mail.`;
                  }
                : undefined
            }
          />
        )}
      </div>
      <h2>Appointments</h2>
      <DeskAppointments
        label="The patient's appointments"
        patientId={Number(id)}
        setAlert={setAlert}
        reloadKey={booked}
      />
      <h2>Lab orders</h2>
      <LabOrderCosts patientId={Number(id)} />
      <h2>Bills</h2>
      <BillTable
        label="The patient's bills"
        load={loadBills}
        reloadKey={paid}
        payLabel="Take payment"
        onPay={setPaying}
        onAdjust={setAdjusting}
        setAlert={setAlert}
        searchable={false}
      />
      {paying && (
        <PayDialog
          bill={paying}
          methods={DESK_METHODS}
          partial
          pay={(payment, key) =>
            apiPost<PaymentResult>(endpoints.desk.pay(paying.id), payment, { 'Idempotency-Key': key })
          }
          onClose={() => setPaying(null)}
          onPaid={(answer) => {
            setPaying(null);
            setAlert(success(answer.message));
            setPaid((n) => n + 1);
          }}
          onFailed={() => {
            setPaying(null);
            setAlert(failure('Error processing payment. Please try again.'));
          }}
        />
      )}
      {adjusting && (
        <AdjustDialog
          bill={adjusting}
          onClose={() => setAdjusting(null)}
          onAdjusted={() => setPaid((n) => n + 1)}
          setAlert={setAlert}
        />
      )}
    </>
  );
}
