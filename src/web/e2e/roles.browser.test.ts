import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { Browser, Page } from 'playwright-core';
import { openPage, openSignedInPage, serverAndBrowserPerSuite, signInThroughUi, type TestServer } from './harness.ts';
import {
  createLabTechnician,
  createNurse,
  createReceptionist,
  registerPatient,
  seedClinic,
  type Account,
  type Clinic,
} from './seed.ts';

const menus = {
  patient: [
    'My Appointments',
    'All Doctors',
    'Profile',
    'Book Appointment',
    'Waitlist',
    'Bills',
    'My Records',
    'My Results',
    'My medicines',
    'Sign-in & Security',
    'Signout',
  ],
  admin: [
    'Dashboard',
    'Appointments',
    'Doctors',
    'Patients',
    'Specializations',
    'Departments',
    'Diseases',
    'Formulary',
    'Rooms',
    'Ward',
    'Bills',
    'Takings',
    'Messages',
    'Interfaces',
    'Audit trail',
    'Access outside the care team',
    'Reception',
    'Lab technicians',
    'Lab tests',
    'Nurses',
    'Sign-in & Security',
    'Signout',
  ],
  doctor: [
    'My Day',
    'Appointments',
    'Manage Records',
    'My Patients',
    'Results to review',
    'Ward patients',
    'Bed board',
    'Medication round',
    'Sign-in & Security',
    'Signout',
  ],
  nurse: ['Bed board', 'Medication round', 'Sign-in & Security', 'Signout'],
  reception: [
    "Today's Appointments",
    'Patients',
    'Bed board',
    'Admissions',
    'Takings',
    'Sign-in & Security',
    'Signout',
  ],
  lab: ['Worklist', 'Unmatched results', 'Sign-in & Security', 'Signout'],
};

describe('signed-in areas and the route guard in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;
  let patient: Account;
  let reception: Account;
  let lab: Account;
  let nurse: Account;

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
    patient = await registerPatient(server, 'Rita Roles');
    reception = await createReceptionist(server, clinic.admin);
    lab = await createLabTechnician(server, clinic.admin);
    nurse = await createNurse(server, clinic);
  });

  const signedIn = async (account: Account): Promise<Page> => {
    const { page } = await openSignedInPage(browser, server, account.email);
    return page;
  };

  it('lands each role in its own area after signing in through the form', async () => {
    const throughForm = async (account: Account) => {
      const { page } = await openPage(browser, server.url);
      await signInThroughUi(page, account.email);
      return page;
    };
    assert.equal(new URL((await throughForm(clinic.admin)).url()).pathname, '/user/admin/dashboard');
    const doctorPage = await throughForm(clinic.doctor);
    await doctorPage.waitForURL('**/user/doctor/agenda');
    assert.equal(new URL((await throughForm(patient)).url()).pathname, '/user/patient');
  });

  it('sends a visitor without a token to /login', async () => {
    const { page } = await openPage(browser, server.url);
    await page.goto('/user/patient/bills');
    await page.waitForURL('**/login');
  });

  it('signs out to /login when the session cookie is no longer accepted', async () => {
    const page = await signedIn(patient);
    await page.context().clearCookies();
    await page.goto('/user/patient/profile');
    await page.waitForURL('**/login');
    assert.equal(await page.evaluate(() => localStorage.getItem('medora.role')), null);
  });

  it("shows the user's name, role, avatar and e-mail in the header, and Signout leads to /login", async () => {
    const page = await signedIn(patient);
    const account = page.getByRole('button', { name: 'Rita Roles Patient Profile' });
    await account.waitFor();
    assert.match((await page.locator('.shell-header img.avatar').getAttribute('src')) ?? '', /default-avatar/);
    await account.click();
    await page.getByText(patient.email).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Add personal account' }).getAttribute('href'), '/signup');
    await page.locator('.account-panel').getByRole('button', { name: 'Signout' }).click();
    await page.waitForURL('**/login');
    await page.goto('/user/patient');
    await page.waitForURL('**/login');
  });

  it('lists each role’s menu as the spec has it, bounces the role from the other areas back to its own, and opens the Departments submenu for admins', async () => {
    // One page per role for both: its menu as it lands, then each other area's path it is sent back from.
    const roles: [Account, string[], string[], string][] = [
      [
        patient,
        menus.patient,
        ['/user/admin/dashboard', '/user/doctor/manage-records', '/user/reception/patients'],
        '/user/patient',
      ],
      [clinic.admin, menus.admin, ['/user/patient/book', '/user/doctor/my-patients'], '/user/admin/dashboard'],
      [clinic.doctor, menus.doctor, ['/user/patient/bills', '/user/admin/departments'], '/user/doctor/agenda'],
      [reception, menus.reception, ['/user/admin/patients'], '/user/reception/today'],
      [lab, menus.lab, ['/user/doctor/results', '/user/patient/results'], '/user/lab'],
      [nurse, menus.nurse, ['/user/doctor/agenda', '/user/admin/bills'], '/user/nurse/beds'],
    ];
    for (const [account, expected, froms, to] of roles) {
      const page = await signedIn(account);
      const sidebar = page.getByRole('navigation', { name: 'Main menu' });
      const items = await sidebar.locator(':scope > ul > li > :is(a, button)').allInnerTexts();
      assert.deepEqual(
        items.map((text) => text.trim()),
        expected,
      );
      for (const from of froms) {
        await page.goto(from);
        await page.waitForURL(`**${to}`);
        await page.locator('h1').waitFor();
      }
      await page.context().close();
    }

    const page = await signedIn(clinic.admin);
    // The submenu's links, not the pages' own links of the same names.
    const sidebar = page.getByRole('navigation', { name: 'Main menu' });
    await sidebar.getByRole('button', { name: 'Departments' }).click();
    await sidebar.getByRole('link', { name: 'Add Department' }).click();
    await page.waitForURL('**/user/admin/departments/create');
    await sidebar.getByRole('link', { name: 'Department List' }).click();
    await page.waitForURL('**/user/admin/departments');
  });

  it('toggles the sidebar from the header', async () => {
    const page = await signedIn(patient);
    const toggle = page.getByRole('button', { name: 'Toggle sidebar' });
    const sidebar = page.getByRole('navigation', { name: 'Main menu' });
    assert.equal(await sidebar.isVisible(), true);
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await sidebar.isVisible(), false);
    await toggle.click();
    await sidebar.waitFor({ state: 'visible' });
  });

  // axe checks each role's shell on every screen in axe-every-screen.ts.
});
