import { useEffect, useRef, useState } from 'react';
import type { BalanceJson, BillingJson, PaymentOptionsJson } from '../../../domain/billing/billing-shapes.ts';
import { apiGet, listAt } from '../../api.ts';
import { Alert, failure, info, success, type AlertMessage } from '../../components/alert.tsx';
import { BillTable } from '../../components/bill-table.tsx';
import { OnlinePayDialog } from '../../components/online-pay-dialog.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { usd } from '../../format.ts';
import { endpoints } from '../../paths.ts';

const loadBills = listAt<BillingJson>(endpoints.patient.billings, 'billings');

/** What the card processor's page sent the patient back to say (`?checkout=paid|cancelled`), once. */
function checkoutOutcome(): AlertMessage | null {
  const outcome = new URLSearchParams(window.location.search).get('checkout');
  if (outcome === null) return null;
  window.history.replaceState(window.history.state, '', window.location.pathname);
  if (outcome === 'paid')
    return success('Thank you: your card payment was taken. The bill shows Paid as soon as it is confirmed.');
  return info('Card payment cancelled: nothing was charged.');
}

export default function BillsPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [paying, setPaying] = useState<BillingJson | null>(null);
  const [balance, setBalance] = useState<BalanceJson | null>(null);
  const [options, setOptions] = useState<PaymentOptionsJson | null>(null);
  const result = useRef<HTMLDivElement>(null);
  const [announce, setAnnounce] = useState(0);

  useEffect(() => {
    apiGet<BalanceJson>(endpoints.patient.balance)
      .then(setBalance)
      .catch((error: unknown) => console.error('balance fetch failed', error));
  }, [reloadKey]);

  useEffect(() => {
    const returned = checkoutOutcome();
    if (returned) setAlert(returned);
    apiGet<PaymentOptionsJson>(endpoints.patient.paymentOptions)
      .then(setOptions)
      .catch((error: unknown) => console.error('payment options fetch failed', error));
  }, [setAlert]);

  // After paying, focus goes to the result rather than to the page body (the Pay button it came from is gone).
  useEffect(() => {
    if (announce > 0) result.current?.focus();
  }, [announce]);

  const finish = (message: AlertMessage) => {
    setPaying(null);
    setAlert(message);
    setAnnounce((n) => n + 1);
  };

  return (
    <>
      <PageHeader title="Your Bills" />
      <p className="balance" aria-live="polite">
        {balance === null ? (
          '\u00a0'
        ) : balance.unpaid_bills === 0 ? (
          'Nothing outstanding'
        ) : (
          <>
            Outstanding balance: <strong>{usd(balance.outstanding_cents)}</strong> ({balance.unpaid_bills} unpaid{' '}
            {balance.unpaid_bills === 1 ? 'bill' : 'bills'})
          </>
        )}
      </p>
      <div ref={result} tabIndex={-1} className="result-focus">
        <Alert message={alert} onDismiss={dismiss} />
      </div>
      <BillTable
        label="Your bills"
        load={loadBills}
        reloadKey={reloadKey}
        payLabel="Pay"
        onPay={setPaying}
        setAlert={setAlert}
      />
      {paying && options && (
        <OnlinePayDialog
          bill={paying}
          options={options}
          onClose={() => setPaying(null)}
          onFailed={(message) => {
            finish(failure(message));
            setReloadKey((key) => key + 1);
          }}
        />
      )}
    </>
  );
}
