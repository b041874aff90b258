import { StaffAccountsPage } from '../../components/staff-accounts-page.tsx';
import { endpoints } from '../../paths.ts';

/** The front desk's accounts: an admin adds receptionists and deactivates those who leave. */
export default function ReceptionistsPage() {
  return (
    <StaffAccountsPage
      kind={{
        title: 'Reception',
        noun: 'receptionist',
        one: 'Receptionist',
        many: 'Receptionists',
        listKey: 'receptionists',
        list: endpoints.admin.receptionists,
        item: endpoints.admin.receptionist,
        formId: 'receptionist-form',
      }}
    />
  );
}
