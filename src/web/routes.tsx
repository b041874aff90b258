/**
 * The route table. Every page is its own lazy chunk, so a visitor of `/` or `/login` downloads no page of
 * the signed-in areas; the signed-in shell is a chunk of its own too.
 */
import { lazy, Suspense, useLayoutEffect, type ComponentType, type LazyExoticComponent } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import type { Role } from '../domain/shared/actor.ts';
import { role } from './auth.ts';
import { routes } from './paths.ts';
import { applyStylesheetFor } from './stylesheet.ts';

type Page = LazyExoticComponent<ComponentType>;

const LandingPage = lazy(() => import('./pages/public/landing-page.tsx'));
const SignupPage = lazy(() => import('./pages/public/signup-page.tsx'));
const LoginPage = lazy(() => import('./pages/public/login-page.tsx'));
const ForgotPasswordPage = lazy(() => import('./pages/public/forgot-password-page.tsx'));
const ResetPasswordPage = lazy(() => import('./pages/public/reset-password-page.tsx'));
const VerifyEmailPage = lazy(() => import('./pages/public/verify-email-page.tsx'));
const CancelAppointmentPage = lazy(() => import('./pages/public/cancel-appointment-page.tsx'));
const AccountPage = lazy(() => import('./pages/account-page.tsx'));
const NotFoundPage = lazy(() => import('./pages/public/not-found-page.tsx'));
const AppShell = lazy(() => import('./components/app-shell.tsx'));

const areaPages: Record<Role, Record<string, Page>> = {
  admin: {
    [routes.admin.dashboard]: lazy(() => import('./pages/admin/dashboard-page.tsx')),
    [routes.admin.appointments]: lazy(() => import('./pages/admin/appointments-page.tsx')),
    [routes.admin.createDepartment]: lazy(() => import('./pages/admin/department-create-page.tsx')),
    [routes.admin.editDepartment]: lazy(() => import('./pages/admin/department-edit-page.tsx')),
    [routes.admin.departments]: lazy(() => import('./pages/admin/departments-page.tsx')),
    [routes.admin.department]: lazy(() => import('./pages/admin/department-page.tsx')),
    [routes.admin.specializations]: lazy(() => import('./pages/admin/specializations-page.tsx')),
    [routes.admin.doctors]: lazy(() => import('./pages/admin/doctors-page.tsx')),
    [routes.admin.patients]: lazy(() => import('./pages/admin/patients-page.tsx')),
    [routes.admin.diseases]: lazy(() => import('./pages/admin/diseases-page.tsx')),
    [routes.admin.rooms]: lazy(() => import('./pages/admin/rooms-page.tsx')),
    [routes.admin.bills]: lazy(() => import('./pages/admin/bills-page.tsx')),
    [routes.admin.messages]: lazy(() => import('./pages/admin/messages-page.tsx')),
    [routes.admin.patientProfile]: lazy(() => import('./pages/admin/patient-profile-page.tsx')),
    [routes.admin.audit]: lazy(() => import('./pages/admin/audit-page.tsx')),
  },
  doctor: {
    [routes.doctor.appointments]: lazy(() => import('./pages/doctor/appointments-page.tsx')),
    [routes.doctor.manageRecords]: lazy(() => import('./pages/doctor/manage-records-page.tsx')),
    [routes.doctor.myPatients]: lazy(() => import('./pages/doctor/my-patients-page.tsx')),
    [routes.doctor.patient]: lazy(() => import('./pages/doctor/patient-page.tsx')),
  },
  patient: {
    [routes.patient.appointments]: lazy(() => import('./pages/patient/appointments-page.tsx')),
    [routes.patient.profile]: lazy(() => import('./pages/patient/profile-page.tsx')),
    [routes.patient.book]: lazy(() => import('./pages/patient/book-page.tsx')),
    [routes.patient.bills]: lazy(() => import('./pages/patient/bills-page.tsx')),
    [routes.patient.records]: lazy(() => import('./pages/patient/records-page.tsx')),
    [routes.patient.doctors]: lazy(() => import('./pages/patient/doctors-page.tsx')),
    [routes.patient.doctorProfile]: lazy(() => import('./pages/patient/doctor-profile-page.tsx')),
  },
};

/** The bare area paths that only lead on to the area's first page. */
const areaRedirects: Record<string, string> = {
  [routes.admin.root]: routes.admin.dashboard,
  [routes.doctor.root]: routes.doctor.appointments,
};

export function App() {
  const [location] = useLocation();
  useLayoutEffect(() => applyStylesheetFor(location), [location]);

  return (
    <Suspense fallback={<Loading />}>
      <Switch>
        <Route path={routes.home} component={LandingPage} />
        <Route path={routes.signup} component={SignupPage} />
        <Route path={routes.login} component={LoginPage} />
        <Route path={routes.forgotPassword} component={ForgotPasswordPage} />
        <Route path={routes.resetPassword} component={ResetPasswordPage} />
        <Route path={routes.verifyEmail} component={VerifyEmailPage} />
        <Route path={routes.cancelAppointment} component={CancelAppointmentPage} />
        <Route path="/user/*?" component={SignedInArea} />
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}

/** The client-side guard of spec §4: not signed in → /login; a role outside its area → /user/{role}. */
function SignedInArea() {
  useSignals();
  const [location] = useLocation();
  const currentRole = role.value;
  if (!currentRole) return <Redirect to={routes.login} replace />;
  const area = location.split('/')[2];
  if (area !== currentRole) return <Redirect to={routes.userArea(currentRole)} replace />;

  return (
    <AppShell role={currentRole}>
      <Suspense fallback={<Loading />}>
        <Switch>
          {Object.entries(areaRedirects).map(([from, to]) => (
            <Route key={from} path={from}>
              <Redirect to={to} replace />
            </Route>
          ))}
          {Object.entries(areaPages[currentRole]).map(([path, page]) => (
            <Route key={path} path={path} component={page} />
          ))}
          <Route path={routes.account(currentRole)} component={AccountPage} />
          <Route component={NotFoundPage} />
        </Switch>
      </Suspense>
    </AppShell>
  );
}

function Loading() {
  return (
    <p className="loading" role="status">
      Loading…
    </p>
  );
}
