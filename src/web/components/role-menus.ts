/** The sidebar menu of each role, as spec §2 lists them (Signout closes every menu). */
import type { ComponentType } from 'react';
import type { Role } from '../../domain/shared/actor.ts';
import { routes } from '../paths.ts';
import {
  BedIcon,
  BillIcon,
  BuildingIcon,
  CalendarIcon,
  ClipboardIcon,
  DashboardIcon,
  DoorIcon,
  FlaskIcon,
  HourglassIcon,
  LockIcon,
  MailIcon,
  PillIcon,
  PrescriptionIcon,
  ShieldIcon,
  StethoscopeIcon,
  UserIcon,
  UsersIcon,
  VirusIcon,
  type IconProps,
} from './icons.tsx';

export interface MenuLink {
  label: string;
  to: string;
  icon: ComponentType<IconProps>;
}

export interface MenuGroup {
  label: string;
  icon: ComponentType<IconProps>;
  links: Omit<MenuLink, 'icon'>[];
}

export type MenuItem = MenuLink | MenuGroup;

export const isGroup = (item: MenuItem): item is MenuGroup => 'links' in item;

export const roleMenus: Record<Role, MenuItem[]> = {
  patient: [
    { label: 'My Appointments', to: routes.patient.appointments, icon: CalendarIcon },
    { label: 'All Doctors', to: routes.patient.doctors, icon: StethoscopeIcon },
    { label: 'Profile', to: routes.patient.profile, icon: UserIcon },
    { label: 'Book Appointment', to: routes.patient.book, icon: ClipboardIcon },
    { label: 'Waitlist', to: routes.patient.waitlist, icon: HourglassIcon },
    { label: 'Bills', to: routes.patient.bills, icon: BillIcon },
    { label: 'My Records', to: routes.patient.records, icon: PrescriptionIcon },
    { label: 'My Results', to: routes.patient.results, icon: FlaskIcon },
    { label: 'My medicines', to: routes.patient.medicines, icon: PillIcon },
    { label: 'Sign-in & Security', to: routes.account('patient'), icon: LockIcon },
  ],
  admin: [
    { label: 'Dashboard', to: routes.admin.dashboard, icon: DashboardIcon },
    { label: 'Appointments', to: routes.admin.appointments, icon: CalendarIcon },
    { label: 'Doctors', to: routes.admin.doctors, icon: StethoscopeIcon },
    { label: 'Patients', to: routes.admin.patients, icon: UsersIcon },
    { label: 'Specializations', to: routes.admin.specializations, icon: PillIcon },
    {
      label: 'Departments',
      icon: BuildingIcon,
      links: [
        { label: 'Department List', to: routes.admin.departments },
        { label: 'Add Department', to: routes.admin.createDepartment },
      ],
    },
    { label: 'Diseases', to: routes.admin.diseases, icon: VirusIcon },
    { label: 'Formulary', to: routes.admin.formulary, icon: PillIcon },
    { label: 'Rooms', to: routes.admin.rooms, icon: DoorIcon },
    {
      label: 'Ward',
      icon: BedIcon,
      links: [
        { label: 'Bed board', to: routes.admin.beds },
        { label: 'Admissions', to: routes.admin.admissions },
        { label: 'Census', to: routes.admin.census },
      ],
    },
    { label: 'Bills', to: routes.admin.bills, icon: BillIcon },
    { label: 'Takings', to: routes.admin.takings, icon: BillIcon },
    { label: 'Messages', to: routes.admin.messages, icon: MailIcon },
    { label: 'Interfaces', to: routes.admin.interfaces, icon: MailIcon },
    { label: 'Audit trail', to: routes.admin.audit, icon: ShieldIcon },
    { label: 'Access outside the care team', to: routes.admin.breakGlass, icon: ShieldIcon },
    { label: 'Reception', to: routes.admin.receptionists, icon: UserIcon },
    { label: 'Lab technicians', to: routes.admin.labTechnicians, icon: UserIcon },
    { label: 'Lab tests', to: routes.admin.labTests, icon: FlaskIcon },
    { label: 'Nurses', to: routes.admin.nurses, icon: UserIcon },
    { label: 'Sign-in & Security', to: routes.account('admin'), icon: LockIcon },
  ],
  lab: [
    { label: 'Worklist', to: routes.lab.worklist, icon: FlaskIcon },
    { label: 'Unmatched results', to: routes.lab.unmatched, icon: ClipboardIcon },
    { label: 'Sign-in & Security', to: routes.account('lab'), icon: LockIcon },
  ],
  nurse: [
    { label: 'Bed board', to: routes.nurse.beds, icon: BedIcon },
    { label: 'Medication round', to: routes.nurse.mar, icon: PillIcon },
    { label: 'Sign-in & Security', to: routes.account('nurse'), icon: LockIcon },
  ],
  reception: [
    { label: "Today's Appointments", to: routes.reception.today, icon: CalendarIcon },
    { label: 'Patients', to: routes.reception.patients, icon: UsersIcon },
    { label: 'Bed board', to: routes.reception.beds, icon: BedIcon },
    { label: 'Admissions', to: routes.reception.admissions, icon: ClipboardIcon },
    { label: 'Takings', to: routes.reception.takings, icon: BillIcon },
    { label: 'Sign-in & Security', to: routes.account('reception'), icon: LockIcon },
  ],
  doctor: [
    { label: 'My Day', to: routes.doctor.agenda, icon: StethoscopeIcon },
    { label: 'Appointments', to: routes.doctor.appointments, icon: CalendarIcon },
    { label: 'Manage Records', to: routes.doctor.manageRecords, icon: ClipboardIcon },
    { label: 'My Patients', to: routes.doctor.myPatients, icon: UsersIcon },
    { label: 'Results to review', to: routes.doctor.results, icon: FlaskIcon },
    { label: 'Ward patients', to: routes.doctor.admissions, icon: ClipboardIcon },
    { label: 'Bed board', to: routes.doctor.beds, icon: BedIcon },
    { label: 'Medication round', to: routes.doctor.mar, icon: PillIcon },
    { label: 'Sign-in & Security', to: routes.account('doctor'), icon: LockIcon },
  ],
};
