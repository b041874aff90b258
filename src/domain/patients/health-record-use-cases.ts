/**
 * "Download my data"'s readable part: what My Records, My stays, My bills and My results show the patient, gathered
 * from those same use cases so the file and the screens cannot disagree.
 */
import type { BillingJson, ReceiptJson } from '../billing/billing-shapes.ts';
import type { ClinicContact } from '../billing/billing.ts';
import type { AdmissionDetailJson } from '../inpatient/inpatient-shapes.ts';
import type { MyResultJson } from '../lab/lab-shapes.ts';
import { ownPatientId, type Actor } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import { MAX_PER_PAGE, type Page } from '../shared/pagination.ts';
import { healthRecordHtml, type HealthRecord } from './health-record-html.ts';
import type { MyProfileJson, PatientVisitJson } from './patients-shapes.ts';

/** The patient's own screens' use cases, each as the patient calls it. */
export interface HealthRecordSources {
  profile(actor: Actor): Promise<MyProfileJson>;
  records(actor: Actor): Promise<{ records: PatientVisitJson[] }>;
  stays(actor: Actor): Promise<{ admissions: AdmissionDetailJson[] }>;
  bills(query: { page: number; per_page: number }, actor: Actor): Promise<Page<BillingJson>>;
  receipt(billId: number, actor: Actor): Promise<ReceiptJson>;
  results(query: { page: number; per_page: number }, actor: Actor): Promise<Page<MyResultJson>>;
}

export interface HealthRecordDeps {
  sources: HealthRecordSources;
  clinic: ClinicContact & { locale: string };
  clock: Clock;
}

/** Every page of a list, read in turn. */
async function everyPage<T>(read: (query: { page: number; per_page: number }) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const found = await read({ page, per_page: MAX_PER_PAGE });
    items.push(...found.items);
    const more = found.totalIsLowerBound ? found.items.length > 0 : page * found.perPage < found.total;
    if (!more) return items;
  }
}

/** The signed-in patient's whole record as their screens show it. */
export async function myHealthRecordFacts(deps: HealthRecordDeps, actor: Actor): Promise<HealthRecord> {
  ownPatientId(actor, 'Only patients download a health record of their own');
  const { sources } = deps;
  const profile = await sources.profile(actor);
  const { records } = await sources.records(actor);
  const { admissions } = await sources.stays(actor);
  const bills = await everyPage((query) => sources.bills(query, actor));
  const results = await everyPage((query) => sources.results(query, actor));
  const receipts: ReceiptJson[] = [];
  for (const bill of bills.filter((b) => b.paid_cents > 0)) receipts.push(await sources.receipt(bill.id, actor));
  return { profile, visits: records, stays: admissions, bills, receipts, results };
}

/** The same as one self-contained, printable HTML page. */
export async function myHealthRecord(deps: HealthRecordDeps, actor: Actor): Promise<string> {
  const record = await myHealthRecordFacts(deps, actor);
  return healthRecordHtml(record, { clinic: deps.clinic, printedAt: deps.clock.now() });
}
