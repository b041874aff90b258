/**
 * The UI's route table as data: which page module (a file `src/web/pages/<module>-page.tsx`) each route pattern
 * shows, in the order the router tries them. routes.tsx draws it; the build reads it to give each route's HTML the
 * `modulepreload` links of exactly the chunks its first screen runs, and to tell the server which paths are the
 * UI's (any other answers 404); the browser tests visit every route in it.
 */
import type { Role } from '../domain/shared/actor.ts';
import { routes } from './paths.ts';

export const publicPages: Record<string, string> = {
  [routes.home]: 'public/landing',
  [routes.signup]: 'public/signup',
  [routes.login]: 'public/login',
  [routes.forgotPassword]: 'public/forgot-password',
  [routes.resetPassword]: 'public/reset-password',
  [routes.verifyEmail]: 'public/verify-email',
  [routes.cancelAppointment]: 'public/cancel-appointment',
  [routes.waitlistOffer]: 'public/waitlist-offer',
};

export const areaPages: Record<Role, Record<string, string>> = {
  admin: {
    [routes.admin.dashboard]: 'admin/dashboard',
    [routes.admin.appointments]: 'admin/appointments',
    [routes.admin.createDepartment]: 'admin/department-create',
    [routes.admin.editDepartment]: 'admin/department-edit',
    [routes.admin.departments]: 'admin/departments',
    [routes.admin.department]: 'admin/department',
    [routes.admin.specializations]: 'admin/specializations',
    [routes.admin.doctors]: 'admin/doctors',
    [routes.admin.editDoctor]: 'admin/doctor-edit',
    [routes.admin.patients]: 'admin/patients',
    [routes.admin.diseases]: 'admin/diseases',
    [routes.admin.rooms]: 'admin/rooms',
    [routes.admin.bills]: 'admin/bills',
    [routes.admin.messages]: 'admin/messages',
    [routes.admin.patientProfile]: 'admin/patient-profile',
    [routes.admin.audit]: 'admin/audit',
    [routes.admin.breakGlass]: 'admin/break-glass',
    [routes.admin.receptionists]: 'admin/receptionists',
    [routes.admin.labTechnicians]: 'admin/lab-technicians',
    [routes.admin.labTests]: 'admin/lab-tests',
    [routes.admin.nurses]: 'admin/nurses',
    [routes.admin.beds]: 'bed-board',
    [routes.admin.admissions]: 'reception/admissions',
    [routes.admin.dischargeSummary]: 'discharge-summary',
    [routes.admin.census]: 'admin/census',
    [routes.admin.takings]: 'reception/takings',
    [routes.admin.formulary]: 'admin/formulary',
    [routes.admin.interfaces]: 'admin/interfaces',
  },
  lab: {
    [routes.lab.worklist]: 'lab/worklist',
    [routes.lab.unmatched]: 'lab/unmatched',
  },
  nurse: {
    [routes.nurse.beds]: 'bed-board',
    [routes.nurse.flowsheet]: 'flowsheet',
    [routes.nurse.mar]: 'ward-mar',
  },
  reception: {
    [routes.reception.today]: 'reception/today',
    [routes.reception.patients]: 'reception/patients',
    [routes.reception.patient]: 'reception/patient',
    [routes.reception.beds]: 'bed-board',
    [routes.reception.admissions]: 'reception/admissions',
    [routes.reception.takings]: 'reception/takings',
  },
  doctor: {
    [routes.doctor.agenda]: 'doctor/agenda',
    [routes.doctor.appointments]: 'doctor/appointments',
    [routes.doctor.manageRecords]: 'doctor/manage-records',
    [routes.doctor.myPatients]: 'doctor/my-patients',
    [routes.doctor.patient]: 'doctor/patient',
    [routes.doctor.beds]: 'bed-board',
    [routes.doctor.admissions]: 'doctor/admissions',
    [routes.doctor.dischargeSummary]: 'discharge-summary',
    [routes.doctor.results]: 'doctor/results-to-review',
    [routes.doctor.patientResults]: 'doctor/patient-results',
    [routes.doctor.labReport]: 'doctor/lab-report',
    [routes.doctor.flowsheet]: 'flowsheet',
    [routes.doctor.prescription]: 'prescription',
    [routes.doctor.mar]: 'ward-mar',
  },
  patient: {
    [routes.patient.appointments]: 'patient/appointments',
    [routes.patient.profile]: 'patient/profile',
    [routes.patient.book]: 'patient/book',
    [routes.patient.bills]: 'patient/bills',
    [routes.patient.records]: 'patient/records',
    [routes.patient.results]: 'patient/results',
    [routes.patient.waitlist]: 'patient/waitlist',
    [routes.patient.doctors]: 'patient/doctors',
    [routes.patient.doctorProfile]: 'patient/doctor-profile',
    [routes.patient.dischargeSummary]: 'discharge-summary',
    [routes.patient.medicines]: 'patient/medicines',
    [routes.patient.prescription]: 'prescription',
  },
};

/** Each role's sign-in and security page, inside its area. */
export const accountPage = 'account';
export const notFoundPage = 'public/not-found';

/** The bare area paths that only lead on to the area's first page. */
export const areaRedirects: Record<string, string> = {
  [routes.admin.root]: routes.admin.dashboard,
  [routes.doctor.root]: routes.doctor.agenda,
  [routes.reception.root]: routes.reception.today,
  [routes.nurse.root]: routes.nurse.beds,
};

/** The signed-in areas' frame (header and sidebar), a lazy chunk of its own; its path as the build's metafile spells it. */
export const SHELL_SOURCE = 'src/web/components/app-shell.tsx';
export const pageSource = (module: string) => `src/web/pages/${module}-page.tsx`;

const roles = Object.keys(areaPages) as Role[];

/** A pattern the UI answers and the source modules its first screen runs on top of the entry, in the router's order. */
export interface AppRoute {
  pattern: string;
  sources: string[];
}

export function appRoutes(): AppRoute[] {
  const signedIn = (module?: string) => [SHELL_SOURCE, ...(module ? [pageSource(module)] : [])];
  const list: AppRoute[] = [
    ...Object.entries(publicPages).map(([pattern, module]) => ({ pattern, sources: [pageSource(module)] })),
    // The signed-in area's guard sends a bare /user on to the role's own area.
    { pattern: '/user', sources: signedIn() },
    ...Object.entries(areaRedirects).map(([pattern, target]) => ({ pattern, sources: signedIn(pageOf(target)) })),
    ...roles.flatMap((role) => [
      ...Object.entries(areaPages[role]).map(([pattern, module]) => ({ pattern, sources: signedIn(module) })),
      { pattern: routes.account(role), sources: signedIn(accountPage) },
    ]),
  ];
  const seen = new Set<string>();
  return list.filter(({ pattern }) => !seen.has(pattern) && seen.add(pattern));
}

const pageOf = (pattern: string) =>
  roles.map((role) => areaPages[role][pattern]).find((module) => module !== undefined);
