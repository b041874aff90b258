import { addDays } from '../shared/clock.ts';
import { fileUrl } from '../shared/files.ts';
import type { DayCount, Statistics, TopDoctorJson } from './reports-shapes.ts';

export interface ClinicCounts {
  /** Booked appointments of any date; cancelled ones are not counted. */
  appointments: number;
  patients: number;
  activeDoctors: number;
  /** Distinct (doctor, disease) pairs in the medical records of active doctors. */
  doctorDiseasePairs: number;
}

export function statisticsOf(counts: ClinicCounts): Statistics {
  return {
    appointment_count: counts.appointments,
    patient_count: counts.patients,
    doctor_count: counts.activeDoctors,
    average_diseases_per_doctor:
      counts.activeDoctors === 0 ? 0 : Math.round((counts.doctorDiseasePairs / counts.activeDoctors) * 100) / 100,
  };
}

/** The active doctor with the most completed appointments; ties go to more distinct patients, then the lowest id. */
export interface TopDoctorRow {
  id: number;
  name: string;
  specialization: string | null;
  imageId: number | null;
  completedAppointments: number;
  patients: number;
}

/** The dashboard's top doctor, or none. */
export function topDoctorJson(row: TopDoctorRow | undefined): TopDoctorJson {
  if (!row) return { top_doctor: null };
  return {
    top_doctor: {
      id: row.id,
      name: row.name,
      specialization: row.specialization,
      patient_img: fileUrl(row.imageId),
      completed_appointments_count: row.completedAppointments,
      patient_count: row.patients,
    },
  };
}

/** Every date from `first` for `days` days, with the count found for it or 0. */
export function zeroFilledDays(first: string, days: number, counts: DayCount[]): DayCount[] {
  const byDate = new Map(counts.map((c) => [c.date, c.count]));
  return Array.from({ length: days }, (_, i) => {
    const date = addDays(first, i);
    return { date, count: byDate.get(date) ?? 0 };
  });
}
