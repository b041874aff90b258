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
import { StatusBadge } from '../components/status-badge.tsx';
import { useAlert } from '../components/use-alert.ts';
import { useLoaded } from '../components/use-fetched.ts';
import { usePolling } from '../components/use-polling.ts';
import {
  BED_STATE_LABELS,
  BED_STATES,
  bedPlace,
  wardFailure,
  type BedBoardJson,
  type BedJson,
  type BoardRoomJson,
} from '../components/ward.ts';
import { capitalize, formatDateTime, usd } from '../format.ts';
import { Link } from 'wouter';
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
    <>
      <PageHeader title="Bed board" />
      <Alert message={alert} onDismiss={dismiss} />
      <div className="board-toolbar">
        <Field label="Ward">
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
        <p className="muted">Refreshes every 15 seconds.</p>
      </div>
      <PanelBody loaded={loaded} retry={retry} what="The bed board" skeleton={<BoardSkeleton />}>
        {(board) => {
          const shown = board.wards.filter((ward) => wardId === '' || String(ward.id) === wardId);
          const whole = shown.length === 1 && shown[0] ? shown[0] : board;
          return (
            <>
              <StateCounts counts={whole.counts} beds={whole.beds} occupancy={whole.occupancy_percent} />
              {shown.length === 0 && <p className="empty">No ward has beds yet.</p>}
              {shown.map((ward) => (
                <section key={ward.id} className="ward" aria-labelledby={`ward-${ward.id}`}>
                  <h2 id={`ward-${ward.id}`}>
                    {ward.name} <span className="muted">· {occupancyText(ward.occupancy_percent)} occupied</span>
                  </h2>
                  {ward.rooms.map((room) => (
                    <Room
                      key={room.id}
                      room={room}
                      actions={desk ? actions : null}
                      onVitals={wardStaff ? (bed) => setOpened({ bed, dialog: 'vitals' }) : null}
                    />
                  ))}
                </section>
              ))}
            </>
          );
        }}
      </PanelBody>
      {opened?.dialog === 'assign' && (
        <AssignBedDialog bed={opened.bed} onClose={() => setOpened(null)} onDone={done} />
      )}
      {opened?.dialog === 'block' && <BlockBedDialog bed={opened.bed} onClose={() => setOpened(null)} onDone={done} />}
      {opened?.dialog === 'vitals' && <VitalsDialog bed={opened.bed} onClose={() => setOpened(null)} onDone={done} />}
    </>
  );
}

const occupancyText = (percent: number | null) => (percent === null ? '—' : `${percent}%`);

function StateCounts({ counts, beds, occupancy }: { counts: Counts | null; beds?: number; occupancy?: number | null }) {
  const value = (n: number | string | undefined) =>
    counts === null ? <span className="skeleton skeleton-inline" /> : n;
  return (
    <dl className="stat-grid board-counts" aria-label="Beds by state">
      {BED_STATES.map((state) => (
        <div key={state} className={`stat stat-${state}`}>
          <dt>{BED_STATE_LABELS[state]}</dt>
          <dd>{value(counts?.[state])}</dd>
        </div>
      ))}
      <div className="stat">
        <dt>Occupancy</dt>
        <dd>{value(`${occupancyText(occupancy ?? null)} of ${beds ?? 0} beds`)}</dd>
      </div>
    </dl>
  );
}

function BoardSkeleton() {
  return (
    <>
      <StateCounts counts={null} />
      <div className="card board-room board-room-skeleton" />
    </>
  );
}

interface BedActions {
  assign: (bed: BedJson) => void;
  block: (bed: BedJson) => void;
  ready: (bed: BedJson) => void;
  unblock: (bed: BedJson) => void;
  admit: (bed: BedJson) => void;
}

function Room({
  room,
  actions,
  onVitals,
}: {
  room: BoardRoomJson;
  actions: BedActions | null;
  onVitals: ((bed: BedJson) => void) | null;
}) {
  return (
    <article className="card board-room" aria-labelledby={`room-${room.id}`}>
      <h3 id={`room-${room.id}`}>
        {room.name}
        {room.bed_class && (
          <span className="muted">
            {' '}
            · {room.bed_class}, {usd(room.nightly_rate_cents ?? 0)} a night
          </span>
        )}
      </h3>
      {room.beds.length === 0 ? (
        <p className="empty">No beds in service.</p>
      ) : (
        <ul className="bed-grid">
          {room.beds.map((bed) => (
            <BedTile key={bed.id} bed={bed} actions={actions} onVitals={onVitals} />
          ))}
        </ul>
      )}
    </article>
  );
}

function BedTile({
  bed,
  actions,
  onVitals,
}: {
  bed: BoardBedJson;
  actions: BedActions | null;
  onVitals: ((bed: BedJson) => void) | null;
}) {
  const place = bedPlace(bed);
  const flowsheet = role.value === 'nurse' ? routes.nurse.flowsheet : routes.doctor.flowsheet;
  return (
    <li className={`bed-tile bed-${bed.state}${bed.news2?.alert ? ' bed-alert' : ''}`}>
      <p className="bed-label">Bed {bed.label}</p>
      <StatusBadge status={`bed-${bed.state}`} label={BED_STATE_LABELS[bed.state]} />
      {bed.occupant && <p className="bed-occupant">{bed.occupant.patient.name}</p>}
      {bed.occupant?.critical_results ? (
        <p className="bed-critical">
          {bed.occupant.critical_results === 1
            ? 'Critical result to acknowledge'
            : `${bed.occupant.critical_results} critical results to acknowledge`}
        </p>
      ) : null}
      {bed.blocked && (
        <p className="bed-occupant">
          {capitalize(bed.blocked.kind)}
          {bed.blocked.reason ? `: ${bed.blocked.reason}` : ''}
        </p>
      )}
      <p className="muted bed-since">Since {formatDateTime(bed.since)}</p>
      {bed.news2 && <News2Line news2={bed.news2} />}
      {bed.occupant && onVitals && (
        <div className="row-actions">
          <button
            type="button"
            className="button button-small button-primary"
            aria-label={`Record vitals: ${place}`}
            onClick={() => onVitals(bed)}
          >
            Record vitals
          </button>
          <Link
            className="button button-small"
            href={withId(flowsheet, bed.occupant.admission_id)}
            aria-label={`Flowsheet: ${place}`}
          >
            Flowsheet
          </Link>
        </div>
      )}
      {actions && <BedButtons bed={bed} place={place} actions={actions} />}
    </li>
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

/** The latest NEWS2 on a tile: the score and risk, when the next set is due (overdue marked), an alert when medium or high. */
function News2Line({ news2 }: { news2: NonNullable<BoardBedJson['news2']> }) {
  return (
    <div className="bed-news2">
      <p>
        <strong>NEWS2 {news2.total}</strong> <span className="muted">({news2.risk} risk)</span>
        {news2.alert && <span className="badge badge-alert"> Alert</span>}
      </p>
      <p className={news2.overdue ? 'bed-overdue' : 'muted'}>
        {news2.overdue ? 'Overdue since' : 'Next due'} {formatDateTime(news2.next_due_at)}
      </p>
    </div>
  );
}
