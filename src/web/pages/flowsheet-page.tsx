/** A stay's flowsheet (nurses and doctors): each vital charted over time, NEWS2 with its bands, a table, printable with the letterhead. */
import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { useSignals } from '@preact/signals-react/runtime';
import { role } from '../auth.ts';
import { PanelBody } from '../components/list-states.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useLoaded } from '../components/use-fetched.ts';
import { VitalChart } from '../components/vital-chart.tsx';
import { Alert, type AlertMessage } from '../components/alert.tsx';
import { Spo2ScaleDialog } from '../components/spo2-scale-dialog.tsx';
import { StayNursingPanel } from '../components/stay-nursing-panel.tsx';
import { useAlert } from '../components/use-alert.ts';
import { formatDateTime } from '../format.ts';
import { endpoints, routes } from '../paths.ts';
import type { FlowsheetJson } from '../../domain/vitals/vitals-shapes.ts';
import { PrintButton } from '../components/print-button.tsx';
import { PrintHead, useClinic } from '../components/printout.tsx';

const CHARTS = [
  ['news2', 'NEWS2', 'score'],
  ['temperature', 'Temperature', ''],
  ['heart_rate', 'Pulse', '/min'],
  ['respiratory_rate', 'Respiratory rate', '/min'],
  ['systolic', 'Systolic blood pressure', 'mm Hg'],
  ['diastolic', 'Diastolic blood pressure', 'mm Hg'],
  ['spo2', 'SpO2', '%'],
] as const;

const dash = (value: number | string | boolean | null) =>
  value === null ? '—' : typeof value === 'boolean' ? (value ? 'Oxygen' : 'Air') : String(value);

/** From the first set to the last, as the printed chart's date. */
const chartedSpan = (times: string[]) => {
  const [first, last] = [times.at(0), times.at(-1)];
  return first && last ? `${formatDateTime(first)} to ${formatDateTime(last)}` : 'No sets yet';
};

export default function FlowsheetPage() {
  useSignals();
  const { id = '' } = useParams<{ id: string }>();
  const [version, setVersion] = useState(0);
  const { loaded, retry } = useLoaded<FlowsheetJson>(endpoints.vitals.flowsheet(id), 'flowsheet', {}, version);
  const { alert, setAlert, dismiss } = useAlert();
  const [settingScale, setSettingScale] = useState(false);
  const scaleSet = (message: AlertMessage) => {
    setSettingScale(false);
    setAlert(message);
    setVersion((v) => v + 1);
  };
  const clinic = useClinic();
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const back = role.value === 'nurse' ? routes.nurse.beds : routes.doctor.beds;
  return (
    <>
      <PageHeader title="Flowsheet">
        <Link href={back} className="button button-small no-print">
          Bed board
        </Link>
        <button
          type="button"
          className="button button-small no-print"
          aria-pressed={view === 'table'}
          onClick={() => setView(view === 'chart' ? 'table' : 'chart')}
        >
          {view === 'chart' ? 'Table view' : 'Chart view'}
        </button>
        {role.value === 'doctor' && (
          <button type="button" className="button button-small no-print" onClick={() => setSettingScale(true)}>
            SpO2 scale
          </button>
        )}
        <PrintButton label="Print temperature chart" />
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      <PanelBody loaded={loaded} retry={retry} what="The flowsheet" skeleton={<div className="card skeleton-visit" />}>
        {(sheet) => {
          const unit = sheet.temperature_unit === 'Cel' ? '°C' : '°F';
          return (
            <>
              <div className="print-only">
                <PrintHead
                  title="Temperature chart"
                  reference={`Stay ${sheet.admission_id}`}
                  clinic={clinic}
                  patient={{ ...sheet.patient, birthDate: sheet.patient_birth_date }}
                  dated={{ label: 'Charted', value: chartedSpan(sheet.sets.map((s) => s.effective_at)) }}
                />
              </div>
              <h2>
                {sheet.patient.name}{' '}
                <span className="muted">
                  · SpO2 scale {sheet.scale} · {sheet.sets.length} sets
                </span>
              </h2>
              {sheet.sets.length === 0 && <p className="empty">No vital signs recorded on this stay yet.</p>}
              {view === 'chart' ? (
                CHARTS.map(([key, title, chartUnit]) => (
                  <VitalChart
                    key={key}
                    title={title}
                    unit={key === 'temperature' ? unit : chartUnit}
                    points={sheet.series[key] ?? []}
                    bands={key === 'news2'}
                  />
                ))
              ) : (
                <div className="card table-scroll">
                  <table className="table">
                    <caption>Vital signs of the stay</caption>
                    <thead>
                      <tr>
                        <th scope="col">Taken</th>
                        <th scope="col">NEWS2</th>
                        <th scope="col">RR</th>
                        <th scope="col">SpO2</th>
                        <th scope="col">Air/O2</th>
                        <th scope="col">BP</th>
                        <th scope="col">Pulse</th>
                        <th scope="col">ACVPU</th>
                        <th scope="col">Temp ({unit})</th>
                        <th scope="col">By</th>
                      </tr>
                    </thead>
                    <tbody>
                      {sheet.sets.map((s) => (
                        <tr key={s.id}>
                          <td>{formatDateTime(s.effective_at)}</td>
                          <td>{s.news2 ? `${s.news2.total} (${s.news2.risk})` : '—'}</td>
                          <td>{dash(s.values.respiratory_rate)}</td>
                          <td>{dash(s.values.spo2)}</td>
                          <td>{dash(s.values.on_oxygen)}</td>
                          <td>
                            {s.values.systolic === null ? '—' : `${s.values.systolic}/${s.values.diastolic ?? '—'}`}
                          </td>
                          <td>{dash(s.values.heart_rate)}</td>
                          <td>{dash(s.values.consciousness)}</td>
                          <td>{dash(s.values.temperature)}</td>
                          <td>{s.recorded_by.name}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              <StayNursingPanel admissionId={sheet.admission_id} />
              {settingScale && (
                <Spo2ScaleDialog
                  admissionId={sheet.admission_id}
                  scale={sheet.scale}
                  onClose={() => setSettingScale(false)}
                  onDone={scaleSet}
                />
              )}
            </>
          );
        }}
      </PanelBody>
    </>
  );
}
