/**
 * The admissions of one group (to act on, waiting, current, past) of one ward or all, by patient name, with each
 * row's actions; each group's count beside its name.
 */
import { useCallback, useEffect, useState } from 'react';
import { fetchList, type ListQuery } from '../api.ts';
import { formatDateTime } from '../format.ts';
import { endpoints } from '../paths.ts';
import { DataTable, type Column } from './data-table.tsx';
import type { RowAction } from './row-actions.tsx';
import { StatusBadge } from './status-badge.tsx';
import { useFetched } from './use-fetched.ts';
import { ADMISSION_STATUS_LABELS, bedPlace, type AdmissionJson, type BedBoardJson } from './ward.ts';

export type AdmissionGroup = 'action' | 'waiting' | 'current' | 'past';

const GROUPS: Record<AdmissionGroup, string> = {
  action: 'Needs action',
  waiting: 'Waiting for a bed',
  current: 'In a bed now',
  past: 'Past stays',
};

/** The moment that matters for the row's group: asked for, in a bed since, or left. */
function when(a: AdmissionJson): string {
  const at = a.discharged_at ?? a.cancelled_at ?? a.admitted_at ?? a.requested_at;
  return formatDateTime(at);
}

interface AdmissionTableProps {
  initialGroup?: AdmissionGroup;
  reloadKey: number;
  /** The clinical reason: for doctors and admins (the server answers it to no one else). */
  showReason?: boolean;
  /** The row's actions, the main one first. */
  actions: (admission: AdmissionJson) => RowAction[];
}

export function AdmissionTable({
  initialGroup = 'action',
  reloadKey,
  showReason = false,
  actions,
}: AdmissionTableProps) {
  const [group, setGroup] = useState<AdmissionGroup>(initialGroup);
  const [wardId, setWardId] = useState('');
  const wards = useFetched<BedBoardJson>(endpoints.ward.bedBoard, 'bed board')?.wards ?? [];
  const counts = useGroupCounts(wardId, reloadKey);
  const load = useCallback(
    (query: ListQuery, signal: AbortSignal) =>
      fetchList<AdmissionJson>(
        endpoints.ward.admissions,
        'admissions',
        { ...query, status: group, department_id: wardId },
        signal,
      ),
    [group, wardId],
  );

  const columns: Column<AdmissionJson>[] = [
    { header: 'Patient', text: (a) => a.patient.name },
    { header: 'Ward', text: (a) => a.ward.name, priority: 2 },
    { header: 'Bed', text: (a) => (a.bed ? bedPlace(a.bed) : '—') },
    {
      header: 'Status',
      cell: (a) => <StatusBadge status={`admission-${a.status}`} label={ADMISSION_STATUS_LABELS[a.status]} />,
    },
    { header: 'Since', text: when, priority: 2 },
    { header: 'Nights expected', cell: (a) => a.expected_nights, priority: 3 },
    { header: 'Requested by', text: (a) => a.requested_by.name, priority: 3 },
    ...(showReason ? [{ header: 'Reason', text: (a: AdmissionJson) => a.reason ?? '', priority: 3 as const }] : []),
  ];

  return (
    <DataTable
      label={`Admissions: ${GROUPS[group].toLowerCase()}`}
      columns={columns}
      load={load}
      rowKey={(a) => a.id}
      emptyText="No admissions found."
      reloadKey={reloadKey}
      filterKey={`${group} ${wardId}`}
      actions={actions}
      filters={
        <>
          <label htmlFor="admission-group">Show</label>
          <select id="admission-group" value={group} onChange={(e) => setGroup(e.target.value as AdmissionGroup)}>
            {Object.entries(GROUPS).map(([value, text]) => (
              <option key={value} value={value}>
                {counts[value as AdmissionGroup] === undefined ? text : `${text} (${counts[value as AdmissionGroup]})`}
              </option>
            ))}
          </select>
          <label htmlFor="admission-ward">Ward</label>
          <select id="admission-ward" value={wardId} onChange={(e) => setWardId(e.target.value)}>
            <option value="">All wards</option>
            {wards.map((ward) => (
              <option key={ward.id} value={ward.id}>
                {ward.name}
              </option>
            ))}
          </select>
        </>
      }
    />
  );
}

/** How many admissions each group holds in the ward shown (or all), fetched again when a step changed them. */
function useGroupCounts(wardId: string, reloadKey: number): Partial<Record<AdmissionGroup, number>> {
  const [counts, setCounts] = useState<Partial<Record<AdmissionGroup, number>>>({});
  useEffect(() => {
    const aborted = new AbortController();
    const groups = Object.keys(GROUPS) as AdmissionGroup[];
    Promise.all(
      groups.map((group) =>
        fetchList<AdmissionJson>(
          endpoints.ward.admissions,
          'admissions',
          { q: '', page: 1, per_page: 1, status: group, department_id: wardId },
          aborted.signal,
        ),
      ),
    )
      .then((pages) => setCounts(Object.fromEntries(groups.map((group, n) => [group, pages[n]?.total]))))
      .catch((error: unknown) => {
        if (!aborted.signal.aborted) console.error('admission counts failed', error);
      });
    return () => aborted.abort();
  }, [wardId, reloadKey]);
  return counts;
}
