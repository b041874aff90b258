/** The only place URLs are spelled: the UI's routes (patterns with `:id` and builders) and the API's paths. */
import type { Role } from '../domain/shared/actor.ts';
import { CANCEL_APPOINTMENT_PATH, RESET_PASSWORD_PATH, VERIFY_EMAIL_PATH, WAITLIST_OFFER_PATH } from '../links.ts';

type Id = number | string;
type AdmissionStep = 'cancel' | 'reserve' | 'admit' | 'undo' | 'transfer' | 'discharge-order' | 'discharge';

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
    breakGlass: '/user/admin/break-glass',
    receptionists: '/user/admin/receptionists',
    beds: '/user/admin/beds',
    admissions: '/user/admin/admissions',
    census: '/user/admin/census',
    takings: '/user/admin/takings',
    dischargeSummary: '/user/admin/admissions/:id/summary',
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
    dischargeSummary: '/user/patient/records/stays/:id/summary',
  },
  reception: {
    root: '/user/reception',
    today: '/user/reception/today',
    patients: '/user/reception/patients',
    patient: '/user/reception/patients/:id',
    /** The patient's page with its booking form open. */
    bookFor: (id: Id) => `/user/reception/patients/${encodeURIComponent(String(id))}?book=1`,
    beds: '/user/reception/beds',
    admissions: '/user/reception/admissions',
    takings: '/user/reception/takings',
  },
  doctor: {
    root: '/user/doctor',
    agenda: '/user/doctor/agenda',
    appointments: '/user/doctor/appointments',
    manageRecords: '/user/doctor/manage-records',
    myPatients: '/user/doctor/my-patients',
    patient: '/user/doctor/my-patients/:id',
    beds: '/user/doctor/beds',
    admissions: '/user/doctor/admissions',
    dischargeSummary: '/user/doctor/admissions/:id/summary',
  },
} as const;

/** The booking page with a doctor already chosen (the doctor profile's "Book with this doctor"). */
export const bookWithDoctor = (doctorId: Id) => `${routes.patient.book}?doctor=${encodeURIComponent(String(doctorId))}`;

/** Fills the `:id` of a route pattern: `withId(routes.patient.doctorProfile, 7)`. */
export const withId = (pattern: string, id: Id) => pattern.replace(':id', encodeURIComponent(String(id)));

/** Paths of the sign-in pages, the pages e-mail links open, and /user use the app stylesheet; every other path the main one (spec §2). */
export const usesAppStylesheet = (path: string) =>
  /^\/(signup|login|reset-password|verify-email|appointments|user)(\/|$)/.test(path);

export const images = {
  defaultAvatar: '/images/default-avatar.svg',
};

export const endpoints = {
  clinic: '/api/clinic',
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
  /** A patient's whole record in FHIR R4 (with `_format`, as NDJSON or a ZIP of one NDJSON file per type). */
  fhirEverything: (patientId: Id) => `/fhir/R4/Patient/${patientId}/$everything`,
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
    doctorLeave: (id: Id) => `/api/admin/doctors/${id}/leave`,
    closures: '/api/admin/closures',
    timeOff: '/api/admin/time-off',
    timeOffItem: (id: Id) => `/api/admin/time-off/${id}`,
    billings: '/api/admin/billings',
    billingsCsv: '/api/admin/billings.csv',
    passwordResets: '/api/admin/password-resets',
    mfaResets: '/api/admin/mfa-resets',
    messages: '/api/admin/messages',
    audit: '/api/admin/audit',
    auditCsv: '/api/admin/audit.csv',
    /** Access outside the care team: every break-the-glass access. */
    breakGlass: '/api/admin/break-glass',
    receptionists: '/api/admin/receptionists',
    receptionist: (id: Id) => `/api/admin/receptionists/${id}`,
    roomBeds: (roomId: Id) => `/api/admin/rooms/${roomId}/beds`,
    roomBedClass: (roomId: Id) => `/api/admin/rooms/${roomId}/bed-class`,
    bed: (id: Id) => `/api/admin/beds/${id}`,
    retireBed: (id: Id) => `/api/admin/beds/${id}/retire`,
    census: '/api/admin/census',
    censusCsv: '/api/admin/census.csv',
  },
  /** The ward's: beds and admissions, for doctors and the desk as each route allows. */
  ward: {
    bedBoard: '/api/bed-board',
    blockBed: (id: Id) => `/api/beds/${id}/block`,
    unblockBed: (id: Id) => `/api/beds/${id}/unblock`,
    bedReady: (id: Id) => `/api/beds/${id}/ready`,
    admissions: '/api/admissions',
    admission: (id: Id) => `/api/admissions/${id}`,
    /** A step of the admission's lifecycle: cancel, reserve, admit, undo, transfer, discharge-order, discharge. */
    admissionStep: (id: Id, step: AdmissionStep) => `/api/admissions/${id}/${step}`,
    dischargeSummary: (id: Id) => `/api/admissions/${id}/discharge-summary`,
  },
  /** The front desk's, for reception and admins. */
  desk: {
    patients: '/api/patients',
    duplicates: '/api/patients/duplicates',
    patient: (id: Id) => `/api/patients/${id}`,
    patientBills: (id: Id) => `/api/patients/${id}/billings`,
    appointments: '/api/appointments',
    day: '/api/appointments/day',
    toMove: '/api/appointments/to-move',
    checkIn: (id: Id) => `/api/appointments/${id}/check-in`,
    noShow: (id: Id) => `/api/appointments/${id}/no-show`,
    undoCheckIn: (id: Id) => `/api/appointments/${id}/undo-check-in`,
    undoNoShow: (id: Id) => `/api/appointments/${id}/undo-no-show`,
    cancel: (id: Id) => `/api/appointments/${id}/cancel`,
    pay: (billId: Id) => `/api/billings/${billId}/payments`,
    adjust: (billId: Id) => `/api/billings/${billId}/adjustments`,
    takings: '/api/desk/takings',
    takingsCsv: '/api/desk/takings.csv',
  },
  patient: {
    profile: '/api/patient/profile',
    appointments: '/api/patient/appointments',
    cancelAppointment: (id: Id) => `/api/patient/appointments/${id}/cancel`,
    /** The patient's own appointment as an .ics file to add to a calendar. */
    appointmentCalendar: (id: Id) => `/api/patient/appointments/${id}/calendar.ics`,
    doctors: '/api/patient/doctors',
    billings: '/api/patient/billings',
    balance: '/api/patient/balance',
    records: '/api/patient/records',
    pay: (billId: Id) => `/api/patient/billings/${billId}/pay`,
    waitlist: '/api/patient/waitlist',
    waitlistEntry: (id: Id) => `/api/patient/waitlist/${id}`,
    admissions: '/api/patient/admissions',
    /** Who opened my record: staff's clinical reads of it. */
    recordOpenings: '/api/patient/record-openings',
  },
  doctor: {
    agenda: '/api/doctor/agenda',
    appointments: '/api/doctor/appointments',
    medicalRecord: (appointmentId: Id) => `/api/doctor/appointments/${appointmentId}/medical-record`,
    /** The doctor who wrote the record, or an admin. */
    amendRecord: (recordId: Id) => `/api/medical-records/${recordId}/amendments`,
    patients: '/api/doctor/patients',
    patient: (id: Id) => `/api/doctor/patients/${id}`,
    /** Opens a record outside the doctor's care team, with a reason, for the rest of the day. */
    breakGlass: (patientId: Id) => `/api/doctor/patients/${patientId}/break-glass`,
  },
} as const;
