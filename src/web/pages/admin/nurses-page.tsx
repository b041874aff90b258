import { StaffAccountsPage } from '../../components/staff-accounts-page.tsx';
import { endpoints } from '../../paths.ts';

/** The wards' nurses: an admin adds them to a department and deactivates those who leave. */
export default function NursesPage() {
  return (
    <StaffAccountsPage
      kind={{
        title: 'Nurses',
        noun: 'nurse',
        one: 'Nurse',
        many: 'Nurses',
        listKey: 'nurses',
        list: endpoints.admin.nurses,
        item: endpoints.admin.nurse,
        formId: 'nurse-form',
        inDepartment: true,
      }}
    />
  );
}
