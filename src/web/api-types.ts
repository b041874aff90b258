/** The JSON shapes of docs/api.md, as the browser receives them. */
import type { Gender, Role } from '../domain/shared/actor.ts';

export type { Gender, Role };

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
