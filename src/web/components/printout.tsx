/**
 * What every printout shares (styles/print.css lays it out for A4 and Letter): the clinic's letterhead (name,
 * address, phone), the patient it is about (name, birth date, id) with the document's date and the day it was
 * printed, and the line a clinician signs on with their name and role under it.
 */
import type { ReactNode } from 'react';
import type { ClinicJson } from '../../domain/shared/shared-shapes.ts';
import { endpoints } from '../paths.ts';
import { formatDate, formatInstantDate } from '../format.ts';
import { useFetched, useLoaded, type Loaded } from './use-fetched.ts';

/** The clinic as a letterhead names it. */
export type Contact = Pick<ClinicJson, 'name' | 'address' | 'phone'>;

export interface PrintedPatient {
  id: number;
  name: string;
  /** yyyy-MM-dd; null when not given. */
  birthDate: string | null;
}

interface PrintHeadProps {
  /** What the document is ("Prescription") and its number, as the letterhead's right side shows them. */
  title: string;
  reference?: string;
  /** The clinic as the document's own answer gives it, or as `useClinic` fetched it (null until then). */
  clinic: Contact | null;
  patient?: PrintedPatient;
  /** The document's own date, named ("Date", "Discharged"), beside the day it is printed. */
  dated?: { label: string; value: string };
  children?: ReactNode;
}

/** The clinic's name, address and phone (GET /api/clinic), for a printout whose answer does not carry them. */
export const useClinic = () => useFetched<ClinicJson>(endpoints.clinic, 'clinic');

/**
 * A printout shown on screen waits for its letterhead too: drawn before it, the clinic's lines would push the
 * document down as they arrive. Answers the document's state held back until the clinic is here, and the clinic.
 */
export function useWithLetterhead<T>(document: Loaded<T>): { loaded: Loaded<T>; clinic: ClinicJson | null } {
  const { loaded: clinic } = useLoaded<ClinicJson>(endpoints.clinic, 'clinic');
  return {
    loaded: clinic.state === 'loading' ? { state: 'loading' } : document,
    clinic: clinic.state === 'loaded' ? clinic.value : null,
  };
}

/** The letterhead, then the patient block: the head of every printout. */
export function PrintHead({ title, reference, clinic, patient, dated, children }: PrintHeadProps) {
  return (
    <header className="printout-head">
      <div className="letterhead">
        <address className="letterhead-clinic">
          <span className="letterhead-name">{clinic?.name ?? ''}</span>
          {clinic?.address && <span>{clinic.address}</span>}
          {clinic?.phone && <span>Phone: {clinic.phone}</span>}
        </address>
        <p className="letterhead-kind">
          {title}
          {reference && <span>{reference}</span>}
        </p>
      </div>
      <dl className="printout-patient" aria-label="Patient and date">
        {patient && (
          <>
            <div>
              <dt>Patient</dt>
              <dd>{patient.name}</dd>
            </div>
            <div>
              <dt>Birth date</dt>
              <dd>{patient.birthDate ? formatDate(patient.birthDate) : 'Not given'}</dd>
            </div>
            <div>
              <dt>Patient ID</dt>
              <dd>{patient.id}</dd>
            </div>
          </>
        )}
        {dated && (
          <div>
            <dt>{dated.label}</dt>
            <dd>{dated.value}</dd>
          </div>
        )}
        <div>
          <dt>Printed</dt>
          <dd>{formatInstantDate(new Date().toISOString())}</dd>
        </div>
        {children}
      </dl>
    </header>
  );
}

/** The line a clinician signs on, their name and role under it. */
export function SignatureLine({ name, signsAs }: { name: string; signsAs: string }) {
  return (
    <p className="signature-line">
      <span className="signature-name">{name}</span>
      <span className="signature-role">{signsAs}</span>
    </p>
  );
}
