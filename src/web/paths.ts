/** The only place URLs are spelled: the UI's routes (patterns with `:id` and builders) and the API's paths. */
import type { Role } from '../domain/shared/actor.ts';
import { CANCEL_APPOINTMENT_PATH, RESET_PASSWORD_PATH, VERIFY_EMAIL_PATH, WAITLIST_OFFER_PATH } from '../links.ts';

type Id = number | string;

export const routes = {
  home: '/',
  signup: '/signup',
  login: '/login',
  forgotPassword: '/login/forgot-password',
  resetPassword: RESET_PASSWORD_PATH,
  verifyEmail: VERIFY_EMAIL_PATH,
  cancelAppointment: CANCEL_APPOINTMENT_PATH,
  waitlistOffer: WAITLIST_OFFER_PATH,
  userArea: (role: Role) => `/user/${role}`,
  /** Each role's own sign-in and security page, inside its area. */
  account: (role: Role) => `/user/${role}/account`,
  admin: {
    root: '/user/admin',
    dashboard: '/user/admin/dashboard',
    appointments: '/user/admin/appointments',
    departments: '/user/admin/departments',
    createDepartment: '/user/admin/departments/create',
    editDepartment: '/user/admin/departments/edit/:id',
    department: '/user/admin/departments/:id',
    specializations: '/user/admin/specializations',
    doctors: '/user/admin/doctors',
    editDoctor: '/user/admin/doctors/edit/:id',
    patients: '/user/admin/patients',
    diseases: '/user/admin/diseases',
    rooms: '/user/admin/rooms',
    bills: '/user/admin/bills',
    messages: '/user/admin/messages',
    patientProfile: '/user/admin/patient/profile/:id',
    audit: '/user/admin/audit',
    receptionists: '/user/admin/receptionists',
  },
  patient: {
    appointments: '/user/patient',
    profile: '/user/patient/profile',
    book: '/user/patient/book',
    bills: '/user/patient/bills',
    records: '/user/patient/records',
    waitlist: '/user/patient/waitlist',
    doctors: '/user/patient/doctors',
    doctorProfile: '/user/patient/doctors/:id',
  },
  reception: {
    root: '/user/reception',
    today: '/user/reception/today',
    patients: '/user/reception/patients',
    patient: '/user/reception/patients/:id',
  },
  doctor: {
    root: '/user/doctor',
    agenda: '/user/doctor/agenda',
    appointments: '/user/doctor/appointments',
    manageRecords: '/user/doctor/manage-records',
    myPatients: '/user/doctor/my-patients',
    patient: '/user/doctor/my-patients/:id',
  },
} as const;

/** The booking page with a doctor already chosen (the doctor profile's "Book with this doctor"). */
export const bookWithDoctor = (doctorId: Id) => `${routes.patient.book}?doctor=${encodeURIComponent(String(doctorId))}`;

/** Fills the `:id` of a route pattern: `withId(routes.patient.doctorProfile, 7)`. */
export const withId = (pattern: string, id: Id) => pattern.replace(':id', encodeURIComponent(String(id)));

/** Paths of the sign-in pages, the pages e-mail links open, and /user use the app stylesheet; every other path the main one (spec §2). */
export const usesAppStylesheet = (path: string) => /^\/(signup|login|reset-password|verify-email|appointments|user)(\/|$)/.test(path);

export const images = {
  defaultAvatar: '/images/default-avatar.svg',
};

export const endpoints = {
  session: '/api/session',
  sessionMfa: '/api/session/mfa',
  loginMfaSetup: '/api/login/mfa/setup',
  logout: '/api/logout',
  logoutEverywhere: '/api/logout/everywhere',
  password: '/api/user/password',
  passwordReset: '/api/password-reset',
  passwordResetRequests: '/api/password-reset-requests',
  emailVerification: '/api/email-verification',
  emailVerificationPreview: '/api/email-verification/preview',
  resendVerification: '/api/user/email-verification',
  appointmentLinkPreview: '/api/appointment-links/preview',
  appointmentLinkCancel: '/api/appointment-links/cancel',
  waitlistOfferPreview: '/api/waitlist-offers/preview',
  waitlistOfferAccept: '/api/waitlist-offers/accept',
  waitlistOfferDecline: '/api/waitlist-offers/decline',
  mfa: '/api/user/mfa',
  mfaConfirm: '/api/user/mfa/confirm',
  mfaDisable: '/api/user/mfa/disable',
  mfaRecoveryCodes: '/api/user/mfa/recovery-codes',
  calendarFeed: '/api/user/calendar-feed',
  register: '/api/patients/register',
  currentUser: '/api/user',
  doctors: '/api/doctors',
  doctorProfile: (id: Id) => `/api/doctors/${id}`,
  availableSlots: (doctorId: Id) => `/api/appointments/available/${doctorId}`,
  nextAvailable: '/api/appointments/next-available',
  book: '/api/appointments/book',
  /** Staff's: a patient onto a waitlist. */
  waitlist: '/api/waitlist',
  reschedule: (id: Id) => `/api/appointments/${id}/reschedule`,
  receipt: (billId: Id) => `/api/billings/${billId}/receipt`,
  diseases: '/api/diseases',
  admin: {
    statistics: '/api/admin/statistics',
    topDoctor: '/api/admin/top-doctor',
    appointmentsPerDay: '/api/admin/appointments-per-day',
    patients: '/api/admin/patients',
    patient: (id: Id) => `/api/admin/patients/${id}`,
    appointments: '/api/admin/appointments',
    appointmentsCsv: '/api/admin/appointments.csv',
    cancelAppointment: (id: Id) => `/api/admin/appointments/${id}/cancel`,
    departments: '/api/admin/departments',
    department: (id: Id) => `/api/admin/departments/${id}`,
    specializations: '/api/admin/specializations',
    specialization: (id: Id) => `/api/admin/specializations/${id}`,
    diseases: '/api/admin/diseases',
    disease: (id: Id) => `/api/admin/diseases/${id}`,
    rooms: '/api/admin/rooms',
    room: (id: Id) => `/api/admin/rooms/${id}`,
    doctors: '/api/admin/doctors',
    doctor: (id: Id) => `/api/admin/doctors/${id}`,
    doctorSchedule: (id: Id) => `/api/admin/doctors/${id}/schedule`,
    billings: '/api/admin/billings',
    billingsCsv: '/api/admin/billings.csv',
    passwordResets: '/api/admin/password-resets',
    mfaResets: '/api/admin/mfa-resets',
    messages: '/api/admin/messages',
    audit: '/api/admin/audit',
    auditCsv: '/api/admin/audit.csv',
    receptionists: '/api/admin/receptionists',
    receptionist: (id: Id) => `/api/admin/receptionists/${id}`,
  },
  /** The front desk's, for reception and admins. */
  desk: {
    patients: '/api/patients',
    patient: (id: Id) => `/api/patients/${id}`,
    patientBills: (id: Id) => `/api/patients/${id}/billings`,
    appointments: '/api/appointments',
    checkIn: (id: Id) => `/api/appointments/${id}/check-in`,
    noShow: (id: Id) => `/api/appointments/${id}/no-show`,
    cancel: (id: Id) => `/api/appointments/${id}/cancel`,
    pay: (billId: Id) => `/api/billings/${billId}/payments`,
  },
  patient: {
    profile: '/api/patient/profile',
    appointments: '/api/patient/appointments',
    cancelAppointment: (id: Id) => `/api/patient/appointments/${id}/cancel`,
    doctors: '/api/patient/doctors',
    billings: '/api/patient/billings',
    balance: '/api/patient/balance',
    records: '/api/patient/records',
    pay: (billId: Id) => `/api/patient/billings/${billId}/pay`,
    waitlist: '/api/patient/waitlist',
    waitlistEntry: (id: Id) => `/api/patient/waitlist/${id}`,
  },
  doctor: {
    agenda: '/api/doctor/agenda',
    appointments: '/api/doctor/appointments',
    medicalRecord: (appointmentId: Id) => `/api/doctor/appointments/${appointmentId}/medical-record`,
    patients: '/api/doctor/patients',
    patient: (id: Id) => `/api/doctor/patients/${id}`,
  },
} as const;
