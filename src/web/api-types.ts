/** The JSON shapes of docs/api.md, as the browser receives them. */
import type { Gender, Role } from '../domain/shared/actor.ts';

export type { Gender, Role };
export type { Department, Disease, Specialization } from '../domain/catalogue/catalogue.ts';

export interface User {
  id: number;
  name: string;
  email: string;
  role: Role;
  profile_image: string | null;
}

export interface LoginAnswer {
  user: User;
  token: string;
  role: Role;
}

export interface Named {
  id: number;
  name: string;
}

export interface Person extends Named {
  email: string;
}

export interface Doctor extends Person {
  user: Person & { profile_image: string | null };
  phone: string | null;
  gender: Gender | null;
  specialization: Named | null;
  department: Named | null;
  bio: string | null;
  birthdate: string | null;
  address: string | null;
  image: string | null;
}

export interface PatientProfile {
  user: User;
  patient: {
    id: number;
    name: string;
    email: string;
    phone: string | null;
    birthdate: string | null;
    gender: Gender | null;
  };
}

export type AppointmentStatus = 'scheduled' | 'completed' | 'cancelled';

export interface Appointment {
  id: number;
  date: string;
  start_time: string;
  end_time: string;
  status: AppointmentStatus;
  patient: Person;
  doctor: Person;
  department: Named | null;
  room: Named | null;
  doctor_name: string;
  department_name: string | null;
  room_name: string | null;
  patient_name: string;
  patient_email: string;
  doctor_email: string;
}

export type SlotStatus = 'available' | 'booked' | 'past';

export interface Slot {
  schedule_id: number;
  start_time: string;
  end_time: string;
  status: SlotStatus;
}

export interface AvailableSlots {
  date: string;
  available_appointments: Slot[];
}

export type PaymentStatus = 'unpaid' | 'paid';

export interface Billing {
  id: number;
  patient: Person;
  service_details: string;
  amount: string;
  amount_cents: number;
  billing_date: string;
  payment_status: PaymentStatus;
}

export interface Receipt {
  clinic_name: string;
  bill_number: string;
  patient: Person;
  billing_date: string;
  items: { description: string; amount: string; amount_cents: number }[];
  total: string;
  total_cents: number;
  amount_paid: string;
  amount_paid_cents: number;
  payment_date: string | null;
  payment_method: string | null;
  payment_status: PaymentStatus;
  currency: string;
}

/** Field problems as the server names them: `{"email": ["is already taken"]}`. */
export type FieldErrors = Record<string, string[]>;

export interface Room {
  id: number;
  name: string;
  department_id: number | null;
  department: Named | null;
}

export interface PatientRow {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  gender: Gender | null;
  birthdate: string | null;
}

export interface MedicalRecord {
  id: number;
  appointment_id: number;
  disease: Named | null;
  diagnosis: string | null;
  lab_tests: string | null;
  prescriptions: string | null;
  service_type: string | null;
  cost: string;
  cost_cents: number;
  record_date: string;
  doctor: Named;
}

export interface PatientDetail {
  id: number;
  user: Person;
  name: string | null;
  email: string | null;
  phone: string | null;
  birthdate: string | null;
  gender: Gender | null;
  photo: string | null;
  description: string | null;
  medical_records: MedicalRecord[];
}

/** A doctor's patient as the doctor's Patient List shows it. */
export interface DoctorPatient {
  id: number;
  name: string | null;
  phone: string | null;
  email: string | null;
  photo: string | null;
}

export interface TopDoctor {
  id: number;
  name: string;
  specialization: string | null;
  patient_img: string | null;
  completed_appointments_count: number;
  patient_count: number;
}

export interface Statistics {
  appointment_count: number;
  patient_count: number;
  doctor_count: number;
  average_diseases_per_doctor: number | string;
}

export interface ScheduleSlot {
  id: number;
  weekday: number;
  start_time: string;
  end_time: string;
  room: Named | null;
}
