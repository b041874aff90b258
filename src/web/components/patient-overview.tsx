/**
 * A patient's overview (admin and doctor areas): photo, facts and the medical record cards, each with the
 * icon and colour of its disease (spec §2, Doctor area).
 */
import { useState, type ComponentType } from 'react';
import type { MedicalRecordJson, PatientDetailJson } from '../../domain/records/records-shapes.ts';
import { capitalize, formatDate, usd } from '../format.ts';
import { images } from '../paths.ts';
import { HeartBeatIcon, PrescriptionIcon, RibbonIcon, VirusIcon, type IconProps } from './icons.tsx';
import { RecordHistory } from './record-history.tsx';
import { AmendRecordDialog } from './amend-record-dialog.tsx';
import { success, type AlertMessage } from './alert.tsx';
import { AllergyBanner } from './allergy-banner.tsx';

export type Tone = 'warning' | 'danger' | 'secondary';

/** corona → virus, warning; Heart Disease → heart-beat, danger; Cancer → ribbon, warning; other → prescription, secondary. */
export function diseaseLook(name: string | null | undefined): { Icon: ComponentType<IconProps>; tone: Tone } {
  switch ((name ?? '').trim().toLowerCase()) {
    case 'corona':
      return { Icon: VirusIcon, tone: 'warning' };
    case 'heart disease':
      return { Icon: HeartBeatIcon, tone: 'danger' };
    case 'cancer':
      return { Icon: RibbonIcon, tone: 'warning' };
    default:
      return { Icon: PrescriptionIcon, tone: 'secondary' };
  }
}

/** `onAmend`: an Amend button, for the record's own doctor or an admin. */
export function MedicalRecordCard({
  record,
  onAmend,
}: {
  record: MedicalRecordJson;
  onAmend?: (record: MedicalRecordJson) => void;
}) {
  const { Icon, tone } = diseaseLook(record.disease?.name);
  const disease = record.disease?.name || 'N/A';
  return (
    <li className={`record-card record-${tone}${record.amended ? ' record-amended' : ''}`}>
      <span className={`record-icon tone-${tone}`}>
        <Icon />
      </span>
      <div>
        <h3 className="record-disease">{disease}</h3>
        <p className="record-date">{formatDate(record.record_date)}</p>
        <p className="record-diagnosis">{record.diagnosis || 'No diagnosis provided'}</p>
        <dl className="details details-compact">
          {record.lab_tests && (
            <>
              <dt>Lab tests</dt>
              <dd>{record.lab_tests}</dd>
            </>
          )}
          {record.prescriptions && (
            <>
              <dt>Prescriptions</dt>
              <dd>{record.prescriptions}</dd>
            </>
          )}
          {record.service_type && (
            <>
              <dt>Service</dt>
              <dd>{record.service_type}</dd>
            </>
          )}
          <dt>Cost</dt>
          <dd>{usd(record.cost_cents)}</dd>
          {record.doctor && (
            <>
              <dt>Doctor</dt>
              <dd>{record.doctor.name}</dd>
            </>
          )}
        </dl>
        <RecordHistory record={record} />
        {onAmend && (
          <button
            type="button"
            className="button button-small"
            onClick={() => onAmend(record)}
            aria-label={`Amend record of ${formatDate(record.record_date)}`}
          >
            Amend
          </button>
        )}
      </div>
    </li>
  );
}

interface PatientOverviewProps {
  patient: PatientDetailJson;
  /** The allergy banner's editor, for the doctors and nurses who keep allergies. */
  editAllergies?: boolean;
  showDescription?: boolean;
  /** Which records the reader may amend, and the patient as it reads after an amendment, with the message to show. */
  amend?: {
    allowed: (record: MedicalRecordJson) => boolean;
    done: (patient: PatientDetailJson, message: AlertMessage) => void;
  };
}

export function PatientOverview({
  patient,
  showDescription = false,
  editAllergies = false,
  amend,
}: PatientOverviewProps) {
  const [amending, setAmending] = useState<MedicalRecordJson | null>(null);
  const name = patient.name || patient.user?.name || 'No Name';
  const email = patient.email || patient.user?.email || 'N/A';
  return (
    <>
      <article className="card patient-overview">
        <img className="doctor-photo" src={patient.photo ?? images.defaultAvatar} alt={name} width="160" height="160" />
        <div>
          <h2>{name}</h2>
          <AllergyBanner patientId={patient.id} editable={editAllergies} />
          <dl className="details">
            <dt>Patient ID</dt>
            <dd>{patient.id}</dd>
            <dt>Birthdate</dt>
            <dd>{patient.birthdate ? formatDate(patient.birthdate) : 'N/A'}</dd>
            <dt>Gender</dt>
            <dd>{patient.gender ? capitalize(patient.gender) : 'N/A'}</dd>
            {showDescription && (
              <>
                <dt>Description</dt>
                <dd>{patient.description || 'N/A'}</dd>
              </>
            )}
            <dt>Phone</dt>
            <dd>{patient.phone || 'N/A'}</dd>
            <dt>Email</dt>
            <dd>{email}</dd>
          </dl>
        </div>
      </article>
      <section className="records" aria-labelledby="records-heading">
        <h2 id="records-heading">Medical Records</h2>
        {patient.medical_records.length === 0 ? (
          <p className="empty">No medical records found for this patient.</p>
        ) : (
          <ul className="record-grid">
            {patient.medical_records.map((record) => (
              <MedicalRecordCard
                key={record.id}
                record={record}
                onAmend={amend?.allowed(record) ? setAmending : undefined}
              />
            ))}
          </ul>
        )}
      </section>
      {amend && amending && (
        <AmendRecordDialog
          record={amending}
          onClose={() => setAmending(null)}
          onAmended={(amended) => {
            setAmending(null);
            const medical_records = patient.medical_records.map((record) =>
              record.id === amended.id ? amended : record,
            );
            amend.done({ ...patient, medical_records }, success('Medical record amended'));
          }}
        />
      )}
    </>
  );
}
