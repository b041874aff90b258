import { StaffAccountsPage } from '../../components/staff-accounts-page.tsx';
import { endpoints } from '../../paths.ts';

/** The lab's accounts: an admin adds lab technicians and deactivates those who leave. */
export default function LabTechniciansPage() {
  return (
    <StaffAccountsPage
      kind={{
        title: 'Lab technicians',
        noun: 'lab technician',
        one: 'Lab technician',
        many: 'Lab technicians',
        listKey: 'lab_technicians',
        list: endpoints.admin.labTechnicians,
        item: endpoints.admin.labTechnician,
        formId: 'lab-technician-form',
      }}
    />
  );
}
