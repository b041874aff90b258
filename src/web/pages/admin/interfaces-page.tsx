/**
 * The HL7 v2 interfaces (issue 51): the receivers Medora sends to with their queues, the messages each way with
 * their acknowledgements, dead letters to resend, and the results received that matched no order; one list at a
 * time, so none moves another as its rows arrive.
 */
import { useState } from 'react';
import { Alert, type AlertMessage } from '../../components/alert.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { UnmatchedResults } from '../../components/unmatched-results.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { Hl7ReceivedMessages, Hl7SentMessages } from './hl7-messages.tsx';
import { Hl7Receivers } from './hl7-receivers.tsx';

const VIEWS = ['Receivers', 'Messages sent', 'Messages received', 'Unmatched results'] as const;
type View = (typeof VIEWS)[number];

export default function InterfacesPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [view, setView] = useState<View>('Receivers');
  const [reloadKey, setReloadKey] = useState(0);
  // A receiver changed or a message resent changes the queues and the messages both: both load again.
  const changed = (message: AlertMessage) => {
    setAlert(message);
    setReloadKey((key) => key + 1);
  };

  return (
    <>
      <PageHeader title="Interfaces">
        {/* biome-ignore lint/a11y/useSemanticElements: a group of toggle buttons, not a form's fieldset */}
        <div className="view-switch" role="group" aria-label="Show">
          {VIEWS.map((name) => (
            <button
              key={name}
              type="button"
              className="button button-small"
              aria-pressed={view === name}
              onClick={() => setView(name)}
            >
              {name}
            </button>
          ))}
        </div>
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      {view === 'Receivers' && <Hl7Receivers reloadKey={reloadKey} onChanged={changed} />}
      {view === 'Messages sent' && <Hl7SentMessages reloadKey={reloadKey} onResent={changed} />}
      {view === 'Messages received' && <Hl7ReceivedMessages reloadKey={reloadKey} />}
      {view === 'Unmatched results' && <UnmatchedResults onDone={setAlert} />}
    </>
  );
}
