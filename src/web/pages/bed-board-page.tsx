/**
 * The bed board (doctors, reception, admins): every ward's rooms and beds, each bed's state and occupant, the
 * counts per state and occupancy. It refreshes itself while in view; the desk acts on a bed from here.
 */
import { useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { apiPost } from '../api.ts';
import { role } from '../auth.ts';
import { Alert, success, type AlertMessage } from '../components/alert.tsx';
import { AssignBedDialog, BlockBedDialog } from '../components/bed-dialogs.tsx';
import { Field } from '../components/field.tsx';
import { PanelBody } from '../components/list-states.tsx';
import { NamedSelect } from '../components/named-select.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { RowMenu } from '../components/row-actions.tsx';
import { useAlert } from '../components/use-alert.ts';
import { useLoaded } from '../components/use-fetched.ts';
import { usePolling } from '../components/use-polling.ts';
import {
  BED_STATE_LABELS,
  BED_STATES,
  bedPlace,
  wardFailure,
  type AdmissionJson,
  type BedBoardJson,
  type BedState,
  type BedJson,
  type BoardRoomJson,
} from '../components/ward.ts';
import { capitalize, formatDateTime } from '../format.ts';
import { endpoints, routes, withId } from '../paths.ts';
import { VitalsDialog } from '../components/vitals-dialog.tsx';

const POLL_MS = 15_000;

type Counts = BedBoardJson['counts'];
type Opened = { bed: BedJson; dialog: 'assign' | 'block' | 'vitals' };
type BoardBedJson = BoardRoomJson['beds'][number];

export default function BedBoardPage() {
  useSignals();
  const desk = role.value === 'reception' || role.value === 'admin';
  const wardStaff = role.value === 'nurse' || role.value === 'doctor';
  const { alert, setAlert, dismiss } = useAlert();
  const { loaded, retry } = useLoaded<BedBoardJson>(endpoints.ward.bedBoard, 'bed board');
  usePolling(retry, POLL_MS);
  const [wardId, setWardId] = useState('');
  const [opened, setOpened] = useState<Opened | null>(null);
  const [stateShown, setStateShown] = useState<BedState | ''>('');
  const showsRequests = desk || role.value === 'doctor';
  const wards = loaded.state === 'loaded' ? loaded.value.wards : [];

  const done = (message: AlertMessage) => {
    setOpened(null);
    setAlert(message);
    retry();
  };
  /** A one-click step on a bed: marked ready, unblocked, or its reserved patient admitted. */
  const act = async (send: () => Promise<unknown>, doneText: string, failureText: string) => {
    try {
      await send();
      done(success(doneText));
    } catch (error) {
      console.error('bed action failed', error);
      setAlert(wardFailure(error, failureText));
    }
  };
  const actions: BedActions = {
    assign: (bed) => setOpened({ bed, dialog: 'assign' }),
    block: (bed) => setOpened({ bed, dialog: 'block' }),
    ready: (bed) =>
      void act(
        () => apiPost(endpoints.ward.bedReady(bed.id)),
        `${bedPlace(bed)} is ready`,
        'The bed could not be marked ready.',
      ),
    unblock: (bed) =>
      void act(
        () => apiPost(endpoints.ward.unblockBed(bed.id)),
        `${bedPlace(bed)} is unblocked and to be cleaned`,
        'The bed could not be unblocked.',
      ),
    admit: (bed) =>
      void act(
        () => apiPost(endpoints.ward.admissionStep(bed.occupant?.admission_id ?? '', 'admit'), { bed_id: bed.id }),
        `${bed.occupant?.patient.name ?? 'The patient'} is admitted to ${bedPlace(bed)}`,
        'The patient could not be admitted.',
      ),
  };

  return (
    <div className="board-page">
      <PageHeader title="Bed board">
        <Field label="Ward" className="board-ward">
          {(control) => (
            <NamedSelect
              control={control}
              placeholder="All wards"
              options={wards}
              value={wardId}
              onChange={setWardId}
            />
          )}
        </Field>
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      <PanelBody loaded={loaded} retry={retry} what="The bed board" skeleton={<BoardSkeleton />}>
        {(board) => {
          const shown = board.wards.filter((ward) => wardId === '' || String(ward.id) === wardId);
          const whole = shown.length === 1 && shown[0] ? shown[0] : board;
          // Refreshed every 15 seconds (POLL_MS) while in view.
          return (
            <div className={showsRequests ? 'board-layout board-with-requests' : 'board-layout'}>
              <div className="board-main">
                <div className="board-toolbar">
                  <StateFilter counts={whole.counts} state={stateShown} onChange={setStateShown} />
                </div>
                {shown.length === 0 && <p className="empty">No ward has beds yet.</p>}
                {shown.map((ward) => (
                  <section key={ward.id} className="ward" aria-labelledby={`ward-${ward.id}`}>
                    <h2 id={`ward-${ward.id}`}>
                      {ward.name}{' '}
                      <span className="muted">
                        · {occupancyText(ward.occupancy_percent)} of {ward.beds} beds occupied
                      </span>
                    </h2>
                    <ul className="bed-grid">
                      {ward.rooms.flatMap((room) =>
                        room.beds
                          .filter((bed) => stateShown === '' || bed.state === stateShown)
                          .map((bed) => (
                            <BedTile
                              key={bed.id}
                              bed={bed}
                              room={ward.rooms.length > 1 ? room.name : null}
                              actions={desk ? actions : null}
                              onVitals={wardStaff ? (bed) => setOpened({ bed, dialog: 'vitals' }) : null}
                            />
                          )),
                      )}
                    </ul>
                  </section>
                ))}
              </div>
              {showsRequests && <RequestsPanel reloadKey={board.counts.reserved + board.counts.occupied} />}
            </div>
          );
        }}
      </PanelBody>
      {opened?.dialog === 'assign' && (
        <AssignBedDialog bed={opened.bed} onClose={() => setOpened(null)} onDone={done} />
      )}
      {opened?.dialog === 'block' && <BlockBedDialog bed={opened.bed} onClose={() => setOpened(null)} onDone={done} />}
      {opened?.dialog === 'vitals' && <VitalsDialog bed={opened.bed} onClose={() => setOpened(null)} onDone={done} />}
    </div>
  );
}

const occupancyText = (percent: number | null) => (percent === null ? '—' : `${percent}%`);

/** A mark for each state beside its words, so a tile never speaks by its colour alone. */
const STATE_ICONS: Record<BedState, string> = {
  vacant: '○',
  reserved: '◔',
  occupied: '●',
  discharge_ordered: '➔',
  cleaning: '✧',
  blocked: '⊘',
};

/** The counts per state, each a filter: pressed, the board shows only that state's beds. */
function StateFilter({
  counts,
  state,
  onChange,
}: {
  counts: Counts;
  state: BedState | '';
  onChange: (state: BedState | '') => void;
}) {
  return (
    <fieldset className="board-filters">
      <legend className="visually-hidden">Show beds</legend>
      {BED_STATES.map((each) => (
        <button
          key={each}
          type="button"
          className={`board-filter board-filter-${each}`}
          aria-pressed={state === each}
          onClick={() => onChange(state === each ? '' : each)}
        >
          <span aria-hidden="true">{STATE_ICONS[each]}</span> {BED_STATE_LABELS[each]}{' '}
          <span className="board-filter-count">{counts[each]}</span>
        </button>
      ))}
    </fieldset>
  );
}

function BoardSkeleton() {
  return <div className="card board-room-skeleton" />;
}

/** The requests waiting for a bed, beside the board, for those who admit (the desk) or ask (doctors). */
function RequestsPanel({ reloadKey }: { reloadKey: number }) {
  const { loaded, retry } = useLoaded<{ admissions: AdmissionJson[] }>(
    endpoints.ward.admissions,
    'admission requests',
    { status: 'waiting', per_page: '50' },
    reloadKey,
  );
  return (
    <aside className="card board-requests" aria-labelledby="board-requests">
      <h2 id="board-requests">Waiting for a bed</h2>
      <PanelBody
        loaded={loaded}
        retry={retry}
        what="The admission requests"
        skeleton={<p className="skeleton skeleton-inline" />}
      >
        {({ admissions }) =>
          admissions.length === 0 ? (
            <p className="empty">No one is waiting.</p>
          ) : (
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a list that scrolls within the panel is reached by keyboard
            <ul className="board-request-list" tabIndex={0} aria-label="Requests waiting for a bed">
              {admissions.map((a) => (
                <li key={a.id}>
                  <strong>{a.patient.name}</strong>
                  <span className="muted">
                    {a.ward.name} · {a.expected_nights} {a.expected_nights === 1 ? 'night' : 'nights'}
                  </span>
                  <span className="muted">
                    {a.status === 'reserved' && a.bed ? `Bed ${a.bed.label} held · ` : ''}
                    {formatDateTime(a.requested_at)}
                  </span>
                </li>
              ))}
            </ul>
          )
        }
      </PanelBody>
    </aside>
  );
}

interface BedActions {
  assign: (bed: BedJson) => void;
  block: (bed: BedJson) => void;
  ready: (bed: BedJson) => void;
  unblock: (bed: BedJson) => void;
  admit: (bed: BedJson) => void;
}

const SEX_LETTERS = { male: 'M', female: 'F', other: 'X' } as const;
const DAY_MS = 86_400_000;

/** Age and sex, then the nights slept so far against those expected: "54 F · 2/5 nights". */
function stayLine(occupant: NonNullable<BedJson['occupant']>): string {
  const person = [occupant.age ?? '', occupant.sex ? SEX_LETTERS[occupant.sex] : ''].join(' ').trim();
  const nights = Math.max(0, Math.floor((Date.now() - Date.parse(occupant.since)) / DAY_MS));
  return [person, `${nights}/${occupant.expected_nights} nights`].filter(Boolean).join(' · ');
}

function BedTile({
  bed,
  room,
  actions,
  onVitals,
}: {
  bed: BoardBedJson;
  room: string | null;
  actions: BedActions | null;
  onVitals: ((bed: BedJson) => void) | null;
}) {
  const place = bedPlace(bed);
  const flowsheet = role.value === 'nurse' ? routes.nurse.flowsheet : routes.doctor.flowsheet;
  const occupant = bed.occupant;
  return (
    <li className={`bed-tile bed-${bed.state}${bed.news2?.alert ? ' bed-alert' : ''}`}>
      <p className="bed-head">
        <span className="bed-icon" aria-hidden="true">
          {STATE_ICONS[bed.state]}
        </span>
        <span className="bed-label">
          <span className="visually-hidden">Bed </span>
          {bed.label}
        </span>
        <span className="bed-state" title={BED_STATE_LABELS[bed.state]}>
          {BED_STATE_LABELS[bed.state]}
        </span>
        {room && <span className="visually-hidden">, {room}</span>}
      </p>
      {occupant && (
        <>
          <p className="bed-occupant">{occupant.patient.name}</p>
          <p className="bed-stay">{stayLine(occupant)}</p>
          {!(actions && bed.state === 'reserved') && (
            <p className="bed-last">
              <BedFlags bed={bed} />
              <span className="bed-doctor">{occupant.doctor.name}</span>
            </p>
          )}
        </>
      )}
      {bed.blocked && (
        <p className="bed-occupant">
          {capitalize(bed.blocked.kind)}
          {bed.blocked.reason ? `: ${bed.blocked.reason}` : ''}
        </p>
      )}
      {!occupant && !bed.blocked && <p className="bed-since">Since {formatDateTime(bed.since)}</p>}
      {occupant && onVitals && (
        <div className="bed-menu">
          <RowMenu
            label={`More actions for ${place}`}
            text={<span aria-hidden="true">⋯</span>}
            items={[
              { label: 'Record vitals', name: `Record vitals: ${place}`, onSelect: () => onVitals(bed) },
              {
                label: 'Flowsheet',
                name: `Flowsheet: ${place}`,
                href: withId(flowsheet, occupant.admission_id),
              },
            ]}
          />
        </div>
      )}
      {actions && <BedButtons bed={bed} place={place} actions={actions} />}
    </li>
  );
}

/** What needs a look on a tile: the latest NEWS2 and its alert, observations overdue, late doses, critical results. */
function BedFlags({ bed }: { bed: BoardBedJson }) {
  const critical = bed.occupant?.critical_results ?? 0;
  const late = bed.occupant?.late_doses ?? 0;
  return (
    <>
      {bed.news2 && <News2Flag news2={bed.news2} />}
      {late > 0 && (
        <span className="bed-flag bed-flag-danger">{late === 1 ? '1 late dose' : `${late} late doses`}</span>
      )}
      {critical > 0 && (
        <span className="bed-flag bed-flag-danger">{critical === 1 ? 'Critical result' : `${critical} critical`}</span>
      )}
    </>
  );
}

function BedButtons({ bed, place, actions }: { bed: BedJson; place: string; actions: BedActions }) {
  const button = (text: string, onClick: () => void, primary = false) => (
    <button
      type="button"
      className={primary ? 'button button-small button-primary' : 'button button-small'}
      aria-label={`${text}: ${place}`}
      onClick={onClick}
    >
      {text}
    </button>
  );
  if (bed.state === 'vacant')
    return (
      <div className="row-actions">
        {button('Assign', () => actions.assign(bed), true)}
        {button('Block', () => actions.block(bed))}
      </div>
    );
  if (bed.state === 'reserved')
    return <div className="row-actions">{button('Admit', () => actions.admit(bed), true)}</div>;
  if (bed.state === 'cleaning')
    return <div className="row-actions">{button('Mark ready', () => actions.ready(bed), true)}</div>;
  if (bed.state === 'blocked')
    return <div className="row-actions">{button('Unblock', () => actions.unblock(bed))}</div>;
  return null;
}

/** The latest NEWS2 as a flag: the score (the risk and the next set due in its title), overdue or alert marked. */
function News2Flag({ news2 }: { news2: NonNullable<BoardBedJson['news2']> }) {
  const due = `${news2.overdue ? 'Overdue since' : 'Next due'} ${formatDateTime(news2.next_due_at)}`;
  return (
    <>
      <span className={news2.alert ? 'bed-flag bed-flag-danger' : 'bed-flag'} title={`${news2.risk} risk · ${due}`}>
        NEWS2 {news2.total}
        {news2.alert && ' Alert'}
      </span>
      {news2.overdue && <span className="bed-flag bed-flag-danger">Obs overdue</span>}
    </>
  );
}
