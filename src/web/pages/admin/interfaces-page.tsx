/**
 * The HL7 v2 interfaces (issue 51): the receivers Medora sends to with their queues, the messages each way with
 * their acknowledgements, dead letters to resend, and the results received that matched no order.
 */
import { useState } from 'react';
import { Alert, type AlertMessage } from '../../components/alert.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { UnmatchedResults } from '../../components/unmatched-results.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { Hl7ReceivedMessages, Hl7SentMessages } from './hl7-messages.tsx';
import { Hl7Receivers } from './hl7-receivers.tsx';

export default function InterfacesPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  // A receiver changed or a message resent changes the queues and the messages both: both load again.
  const changed = (message: AlertMessage) => {
    setAlert(message);
    setReloadKey((key) => key + 1);
  };

  return (
    <>
      <PageHeader title="Interfaces" />
      <Alert message={alert} onDismiss={dismiss} />
      <section aria-labelledby="hl7-receivers-heading">
        <h2 id="hl7-receivers-heading">Receivers</h2>
        <Hl7Receivers reloadKey={reloadKey} onChanged={changed} />
      </section>
      <section aria-labelledby="hl7-sent-heading">
        <h2 id="hl7-sent-heading">Messages sent</h2>
        <Hl7SentMessages reloadKey={reloadKey} onResent={changed} />
      </section>
      <section aria-labelledby="hl7-received-heading">
        <h2 id="hl7-received-heading">Messages received</h2>
        <Hl7ReceivedMessages reloadKey={reloadKey} />
      </section>
      <section aria-labelledby="hl7-unmatched-heading">
        <h2 id="hl7-unmatched-heading">Unmatched results</h2>
        <UnmatchedResults onDone={setAlert} />
      </section>
    </>
  );
}
