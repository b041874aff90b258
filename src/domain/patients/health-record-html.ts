/** The health record in "Download my data" as one HTML page: no script, no outside file, printable to PDF. */
import type { ClinicContact } from '../billing/billing.ts';
import type { AdmissionDetailJson } from '../inpatient/inpatient-shapes.ts';
import type { MyResultJson } from '../lab/lab-shapes.ts';
import { escapeHtml } from '../notifications/message.ts';
import { formatDate, formatDateTime, formatTime } from '../shared/date-format.ts';
import { formatUsd } from '../shared/money.ts';
import type { MyProfileJson, PatientVisitJson } from './patients-shapes.ts';
import type { BillingJson, ReceiptJson } from '../billing/billing-shapes.ts';

/** Everything the health record shows, as the patient's screens answer it. */
export interface HealthRecord {
  profile: MyProfileJson;
  visits: PatientVisitJson[];
  stays: AdmissionDetailJson[];
  bills: BillingJson[];
  receipts: ReceiptJson[];
  results: MyResultJson[];
}

interface Printing {
  clinic: ClinicContact & { locale: string };
  printedAt: Date;
}

/** Text made safe for HTML; every value from the record goes through here. */
const h = (text: string | number | null | undefined) =>
  escapeHtml(text === null || text === undefined ? '' : String(text));

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; color: #1d2a33; max-width: 60rem; margin: 0 auto; padding: 1.5rem; }
header { border-bottom: 2px solid #1d2a33; margin-bottom: 1rem; display: flex; justify-content: space-between; gap: 1rem; flex-wrap: wrap; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; } h2 { font-size: 1.2rem; margin: 1.5rem 0 .5rem; border-bottom: 1px solid #c9d2d8; }
h3 { font-size: 1rem; margin: 1rem 0 .25rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: 0; }
dt { font-weight: 600; } dd { margin: 0; white-space: pre-wrap; }
table { border-collapse: collapse; width: 100%; margin: .25rem 0 .75rem; }
th, td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid #e1e6ea; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
section.entry { break-inside: avoid; margin-bottom: 1rem; }
.muted { color: #52626e; }
@media print { body { padding: 0; max-width: none; } h2 { break-after: avoid; } }
`;

/** The whole record, newest first within each part, as the patient's screens order them. */
export function healthRecordHtml(record: HealthRecord, { clinic, printedAt }: Printing): string {
  const { locale } = clinic;
  const patient = record.profile.patient;
  const day = (date: string) => formatDate(date, locale);
  const instant = (at: string) => formatDateTime(at, locale, clinic.timeZone);
  return [
    '<!doctype html>',
    `<html lang="${h(locale)}"><head><meta charset="utf-8" />`,
    '<meta name="viewport" content="width=device-width, initial-scale=1" />',
    `<title>Health record of ${h(patient.name)}</title><style>${STYLE}</style></head><body>`,
    '<header><div>',
    `<h1>Health record of ${h(patient.name)}</h1>`,
    '<dl>',
    `<dt>Born</dt><dd>${patient.birthdate ? h(day(patient.birthdate)) : 'Not recorded'}</dd>`,
    `<dt>Patient id</dt><dd>${h(patient.id)}</dd>`,
    `<dt>Printed</dt><dd>${h(instant(printedAt.toISOString()))}</dd>`,
    '</dl></div>',
    `<address><strong>${h(clinic.name)}</strong><br />${h(clinic.address)}<br />${h(clinic.phone)}</address>`,
    '</header>',
    section('Visits', record.visits, (visit) => visitHtml(visit, { day, instant, locale })),
    section('Lab results', record.results.length ? [record.results] : [], (results) => resultsHtml(results, instant)),
    section('Hospital stays', record.stays, (stay) => stayHtml(stay, instant)),
    section('Bills', record.bills.length ? [record.bills] : [], () => billsHtml(record, day)),
    '</body></html>',
    '',
  ].join('\n');
}

function section<T>(title: string, items: T[], render: (item: T) => string): string {
  const body = items.length === 0 ? '<p class="muted">None.</p>' : items.map(render).join('\n');
  return `<h2>${h(title)}</h2>\n${body}`;
}

const field = (label: string, value: string, empty: string) =>
  `<dt>${h(label)}</dt><dd>${value === '' ? `<span class="muted">${h(empty)}</span>` : h(value)}</dd>`;

function visitHtml(
  visit: PatientVisitJson,
  { day, instant, locale }: { day: (d: string) => string; instant: (at: string) => string; locale: string },
): string {
  const versions =
    visit.history.length > 1
      ? [
          '<h4>Versions of this record</h4>',
          '<table><thead><tr><th>Version</th><th>Written</th><th>Disease</th><th>Diagnosis</th><th>Prescriptions</th><th>Lab tests</th><th>Reason</th></tr></thead><tbody>',
          ...visit.history.map(
            (v) =>
              `<tr><td>${h(v.version)}</td><td>${h(instant(v.written_at))}, ${h(v.written_by.name)}</td><td>${h(v.disease?.name)}</td><td>${h(v.diagnosis)}</td><td>${h(v.prescriptions)}</td><td>${h(v.lab_tests)}</td><td>${h(v.reason ?? 'First recorded')}</td></tr>`,
          ),
          '</tbody></table>',
        ].join('\n')
      : '';
  return [
    '<section class="entry">',
    `<h3>${h(day(visit.date))}, ${h(formatTime(visit.start_time, locale))} · ${h(visit.doctor.name)}</h3>`,
    '<dl>',
    field('Disease', visit.disease?.name ?? '', 'N/A'),
    field('Diagnosis', visit.diagnosis, 'No diagnosis provided'),
    field('Prescriptions', visit.prescriptions, 'None'),
    field('Lab tests', visit.lab_tests, 'None'),
    field('Service', visit.service_type, 'Not recorded'),
    visit.amended ? field('Amended', `Yes, ${visit.history.length} versions`, '') : '',
    '</dl>',
    versions,
    '</section>',
  ].join('\n');
}

const resultValue = (result: MyResultJson) =>
  result.value !== null
    ? `${result.value}${result.unit ? ` ${result.unit}` : ''}`
    : (result.answer ?? result.text ?? '');

function resultsHtml(results: MyResultJson[], instant: (at: string) => string): string {
  return [
    '<table><thead><tr><th>Taken</th><th>Order</th><th>Test</th><th class="num">Result</th><th>Usual range</th><th>Reading</th></tr></thead><tbody>',
    ...results.map(
      (r) =>
        `<tr><td>${h(instant(r.effective_at))}</td><td>${h(r.order_number)}</td><td>${h(r.name)}</td><td class="num">${h(resultValue(r))}${r.corrected ? ' (corrected)' : ''}</td><td>${h(r.range)}</td><td>${h(r.interpretation)}</td></tr>`,
    ),
    '</tbody></table>',
  ].join('\n');
}

function stayHtml(stay: AdmissionDetailJson, instant: (at: string) => string): string {
  const when = (at: string | null) => (at ? instant(at) : '');
  const summary = stay.discharge_summary;
  return [
    '<section class="entry">',
    `<h3>${h(stay.ward.name)} · ${h(stay.status.replaceAll('_', ' '))}</h3>`,
    '<dl>',
    field('Requested by', stay.requested_by.name, ''),
    field('Admitted', when(stay.admitted_at), 'Not yet'),
    field('Discharged', when(stay.discharged_at), 'Not yet'),
    field(
      'Beds',
      stay.locations
        .map((l) => `${l.room.name} ${l.bed} from ${when(l.from)}${l.to ? ` to ${when(l.to)}` : ''}`)
        .join('; '),
      'None',
    ),
    '</dl>',
    summary
      ? [
          '<h4>Discharge summary</h4><dl>',
          field('Written', `${when(summary.written_at)} by ${summary.doctor.name}`, ''),
          field('Diagnosis', summary.diagnosis, 'None'),
          field('Treatment', summary.treatment, 'None'),
          field('Medication', summary.medication, 'None'),
          field('Instructions', summary.instructions, 'None'),
          field('Follow-up', summary.follow_up, 'None'),
          '</dl>',
        ].join('\n')
      : '',
    '</section>',
  ].join('\n');
}

function billsHtml(record: HealthRecord, day: (d: string) => string): string {
  const payments = record.receipts.flatMap((receipt) =>
    receipt.payments.map((payment) => ({ ...payment, bill: receipt.bill_number })),
  );
  return [
    '<table><thead><tr><th>Bill</th><th>Date</th><th>For</th><th class="num">Amount</th><th class="num">Paid</th><th class="num">Owed</th><th>Status</th></tr></thead><tbody>',
    ...record.bills.map(
      (b) =>
        `<tr><td>${h(b.bill_number)}</td><td>${h(day(b.billing_date))}</td><td>${h(b.service_details)}</td><td class="num">${h(formatUsd(b.adjusted_amount_cents))}</td><td class="num">${h(formatUsd(b.paid_cents))}</td><td class="num">${h(formatUsd(b.balance_cents))}</td><td>${h(b.payment_status.replaceAll('_', ' '))}</td></tr>`,
    ),
    '</tbody></table>',
    '<h3>Payments</h3>',
    payments.length === 0
      ? '<p class="muted">None.</p>'
      : [
          '<table><thead><tr><th>Date</th><th>Bill</th><th>Method</th><th class="num">Amount</th></tr></thead><tbody>',
          ...payments.map(
            (p) =>
              `<tr><td>${h(day(p.date))}</td><td>${h(p.bill)}</td><td>${h(p.method.replaceAll('_', ' '))}</td><td class="num">${h(formatUsd(p.amount_cents))}</td></tr>`,
          ),
          '</tbody></table>',
        ].join('\n'),
  ].join('\n');
}
