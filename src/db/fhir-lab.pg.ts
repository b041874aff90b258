import type { Category } from '../domain/lab/catalogue.ts';
import type { ItemStatus, Priority, RejectionReason } from '../domain/lab/orders.ts';
import type { Interpretation } from '../domain/lab/interpretation.ts';
import type { ObservationStatus, ReportStatus } from '../domain/lab/reports.ts';
import type { LabReportRow } from '../domain/fhir/diagnostic-report.ts';
import type { LabCode } from '../domain/fhir/lab-codes.ts';
import type { ObservationRow } from '../domain/fhir/observation.ts';
import type { ObservationCodeSystem } from '../domain/fhir/vital-observation.ts';
import type { LabRequestRow } from '../domain/fhir/service-request.ts';
import type { SpecimenRow } from '../domain/fhir/specimen.ts';
import type { SpecimenType } from '../domain/lab/catalogue.ts';
import { versioned, type FhirTable, type VersionedSql } from './fhir-search.pg.ts';
import { valueOfRow } from './lab.pg.ts';
import { componentsOf, VITAL_OBSERVATIONS } from './fhir-vitals.pg.ts';

// The lab's resources (issue 48). A test's code is searched as `<loinc|local>|<code>` (domain/fhir/lab-codes.ts).
// `visible_at` is when the patient may see a result: its report's release, or RESULTS_AUTO_RELEASE_DAYS
// (`{autoRelease}`, null for never) after sign-off, whichever comes first; never before sign-off.

const PATIENT = 'join patients p on p.id = {row}.patient_id join users pu on pu.id = p.user_id';
const patientOf = (row: string) => PATIENT.replaceAll('{row}', row);

const VISIBLE_AT = `case when rep.status in ('final', 'corrected', 'amended')
    then least(rep.released_at, rep.signed_off_at + make_interval(days => {autoRelease})) end`;

/** The specimen in use (not rejected) of the test ordered `item`. */
const liveSpecimen = (item: string) =>
  `(select s.id from lab_specimens s where s.order_item_id = ${item} and s.rejected_at is null)`;

interface CodeSql {
  code_system: LabCode['system'];
  code: string;
  code_name: string;
}

const codeOf = (r: CodeSql): LabCode => ({ system: r.code_system, code: r.code, name: r.code_name });

interface RequestSql extends CodeSql {
  id: number;
  updated_at: Date;
  order_number: string;
  patient_id: number;
  patient_name: string;
  doctor_id: number;
  doctor_name: string;
  appointment_id: number | null;
  admission_id: number | null;
  priority: Priority;
  clinical_note: string;
  ordered_at: Date;
  status: ItemStatus;
  category: Category;
  specimen_id: number | null;
}

export const serviceRequestTable: FhirTable<LabRequestRow> = {
  sql: `select i.id, o.order_number, o.patient_id, pu.name as patient_name, o.doctor_id, du.name as doctor_name,
               o.appointment_id, o.admission_id, o.priority, o.clinical_note, o.ordered_at, i.status, t.category,
               t.code_system, t.code, t.name as code_name, t.code_system || '|' || t.code as code_token,
               ${liveSpecimen('i.id')} as specimen_id,
               greatest(o.ordered_at, o.cancelled_at,
                        (select max(greatest(s.collected_at, s.rejected_at)) from lab_specimens s where s.order_item_id = i.id),
                        (select max(v.recorded_at) from observations ob join observation_versions v on v.observation_id = ob.id
                         where ob.order_item_id = i.id)) as updated_at
        from lab_order_items i join lab_orders o on o.id = i.order_id join lab_tests t on t.id = i.test_id
        ${patientOf('o')} join doctors d on d.id = o.doctor_id join users du on du.id = d.user_id`,
  columns: {
    _id: 'id::int',
    _lastUpdated: 'updated_at::timestamptz',
    patient: 'patient_id::int',
    subject: 'patient_id::int',
    requester: 'doctor_id::int',
    code: 'code_token::text',
    category: 'category::text',
    status: 'status::text',
    requisition: 'order_number::text',
    authored: 'ordered_at::timestamptz',
  },
  patientColumn: 'patient_id',
  toRow: (raw) => {
    const r = raw as unknown as RequestSql;
    return {
      id: r.id,
      updatedAt: r.updated_at,
      orderNumber: r.order_number,
      patient: { id: r.patient_id, name: r.patient_name },
      doctor: { id: r.doctor_id, name: r.doctor_name },
      appointmentId: r.appointment_id,
      admissionId: r.admission_id,
      priority: r.priority,
      clinicalNote: r.clinical_note,
      orderedAt: r.ordered_at,
      status: r.status,
      category: r.category,
      test: codeOf(r),
      specimenId: r.specimen_id,
    };
  },
};

interface SpecimenSql {
  id: number;
  updated_at: Date;
  specimen_code: string;
  patient_id: number;
  patient_name: string;
  order_item_id: number;
  specimen_type: SpecimenType;
  collected_at: Date;
  collector: string;
  rejected_reason: RejectionReason | null;
  rejected_note: string;
}

export const specimenTable: FhirTable<SpecimenRow> = {
  sql: `select s.id, greatest(s.collected_at, s.rejected_at) as updated_at, s.specimen_code, o.patient_id,
               pu.name as patient_name, s.order_item_id, t.specimen_type, s.collected_at, cu.name as collector,
               s.rejected_reason, s.rejected_note,
               case when s.rejected_at is null then 'available' else 'unsatisfactory' end as status
        from lab_specimens s join lab_order_items i on i.id = s.order_item_id join lab_orders o on o.id = i.order_id
        join lab_tests t on t.id = i.test_id join users cu on cu.id = s.collected_by ${patientOf('o')}`,
  columns: {
    _id: 'id::int',
    _lastUpdated: 'updated_at::timestamptz',
    patient: 'patient_id::int',
    subject: 'patient_id::int',
    accession: 'specimen_code::text',
    status: 'status::text',
    collected: 'collected_at::timestamptz',
  },
  patientColumn: 'patient_id',
  toRow: (raw) => {
    const r = raw as unknown as SpecimenSql;
    return {
      id: r.id,
      updatedAt: r.updated_at,
      specimenCode: r.specimen_code,
      patient: { id: r.patient_id, name: r.patient_name },
      requestId: r.order_item_id,
      type: r.specimen_type,
      collectedAt: r.collected_at,
      collector: r.collector,
      rejected: r.rejected_reason === null ? null : { reason: r.rejected_reason, note: r.rejected_note },
    };
  },
};

interface ObservationSql extends VersionedSql {
  kind: 'result' | 'vital' | 'news2' | 'fluid';
  fhir_id: string;
  patient_id: number;
  patient_name: string;
  category: ObservationRow['category'];
  code_system: ObservationCodeSystem;
  code: string;
  code_name: string;
  value_type: 'quantity' | 'coded' | 'text' | 'none';
  value_quantity: number | string | null;
  value_unit: string | null;
  value_code: string | null;
  value_text: string | null;
  interpretation: Interpretation | null;
  range_low: number | string | null;
  range_high: number | string | null;
  status: ObservationStatus;
  effective_at: Date;
  order_item_id: number | null;
  report_id: number | null;
  specimen_id: number | null;
  components: unknown;
  method: string | null;
  appointment_id: number | null;
  admission_id: number | null;
}

const numberOrNull = (v: number | string | null) => (v === null ? null : Number(v));

export const observationTable: FhirTable<ObservationRow> = {
  // One select for the one resource type: the lab's results, then the ward's (fhir-vitals.pg.ts).
  sql: `select 'result' as kind, ob.id::text as fhir_id, ob.id, v.recorded_at as updated_at, ob.version, ob.patient_id,
               pu.name as patient_name, ob.category, ob.code_system, ob.code, ob.display as code_name,
               ob.code_system || '|' || ob.code as code_token, ob.value_type, ob.value_quantity, ob.value_unit,
               ob.value_code, ob.value_text, ob.interpretation, ob.range_low, ob.range_high, ob.status, ob.effective_at,
               ob.order_item_id, ob.report_id, ${liveSpecimen('ob.order_item_id')} as specimen_id,
               case when ob.report_id is null then ob.recorded_at else ${VISIBLE_AT} end as visible_at,
               null::json as components, null::text as method, null::int as appointment_id, null::int as admission_id
        from observations ob join observation_versions v on v.observation_id = ob.id and v.version = ob.version
        left join lab_reports rep on rep.id = ob.report_id ${patientOf('ob')}
        where ob.vital_set_id is null
        union all ${VITAL_OBSERVATIONS}`,
  columns: {
    _id: 'fhir_id::text',
    _lastUpdated: 'updated_at::timestamptz',
    patient: 'patient_id::int',
    subject: 'patient_id::int',
    code: 'code_token::text',
    category: 'category::text',
    status: 'status::text',
    date: 'effective_at::timestamptz',
    'based-on': 'order_item_id::int',
    specimen: 'specimen_id::int',
  },
  patientColumn: 'patient_id',
  releasedColumn: 'visible_at',
  toRow: (raw) => {
    const r = raw as unknown as ObservationSql;
    const low = numberOrNull(r.range_low);
    const high = numberOrNull(r.range_high);
    return {
      ...versioned(r),
      fhirId: r.fhir_id,
      patient: { id: r.patient_id, name: r.patient_name },
      category: r.category,
      test: { system: r.code_system, code: r.code, name: r.code_name },
      value: r.value_type === 'none' ? null : valueOfRow({ ...r, value_type: r.value_type }),
      components: componentsOf(r.kind, r.components),
      method: r.method,
      appointmentId: r.appointment_id,
      admissionId: r.admission_id,
      interpretation: r.interpretation,
      range: low === null && high === null ? null : { low, high },
      status: r.status,
      effectiveAt: r.effective_at,
      issued: r.updated_at,
      requestId: r.order_item_id,
      reportId: r.report_id,
      specimenId: r.specimen_id,
    };
  },
};

interface ReportSql extends VersionedSql, CodeSql {
  order_number: string;
  patient_id: number;
  patient_name: string;
  doctor_id: number;
  doctor_name: string;
  appointment_id: number | null;
  admission_id: number | null;
  status: ReportStatus;
  categories: Category[];
  effective_at: Date;
  issued: Date | null;
  request_ids: number[];
  specimen_ids: number[];
  result_ids: number[];
}

// The one test or panel an order asked for names its report; several are a "Laboratory report" (LOINC 11502-2),
// or when all are imaging a "Diagnostic imaging study" (LOINC 18748-4).
const REPORTS = `
  select rep.id, greatest(rep.updated_at, rep.released_at) as updated_at, rep.row_version as version, o.order_number,
         o.patient_id, pu.name as patient_name, o.doctor_id, du.name as doctor_name, o.appointment_id, o.admission_id,
         rep.status, ordered.code_system, ordered.code, ordered.code_name,
         ordered.code_system || '|' || ordered.code as code_token,
         array(select distinct t.category from lab_order_items i join lab_tests t on t.id = i.test_id
               where i.order_id = o.id order by t.category) as categories,
         coalesce((select min(ob.effective_at) from observations ob where ob.report_id = rep.id),
                  (select min(s.collected_at) from lab_specimens s join lab_order_items i on i.id = s.order_item_id
                   where i.order_id = o.id), o.ordered_at) as effective_at,
         greatest(rep.signed_off_at, (select max(v.recorded_at) from observations ob
                  join observation_versions v on v.observation_id = ob.id where ob.report_id = rep.id)) as issued,
         array(select i.id from lab_order_items i where i.order_id = o.id order by i.id) as request_ids,
         array(select s.id from lab_specimens s join lab_order_items i on i.id = s.order_item_id
               where i.order_id = o.id and s.rejected_at is null order by s.id) as specimen_ids,
         array(select ob.id from observations ob where ob.report_id = rep.id order by ob.id) as result_ids,
         ${VISIBLE_AT} as visible_at
  from lab_reports rep join lab_orders o on o.id = rep.order_id ${patientOf('o')}
  join doctors d on d.id = o.doctor_id join users du on du.id = d.user_id
  cross join lateral (
    select coalesce(one.code_system, 'loinc') as code_system,
           coalesce(one.code, case when kinds.imaging_only then '18748-4' else '11502-2' end) as code,
           coalesce(one.name, case when kinds.imaging_only then 'Diagnostic imaging study' else 'Laboratory report' end) as code_name
    from (select bool_and(t.category = 'imaging') as imaging_only,
                 case when count(distinct coalesce(i.panel_id, i.test_id)) = 1 then min(coalesce(i.panel_id, i.test_id)) end as one_id
          from lab_order_items i join lab_tests t on t.id = i.test_id where i.order_id = o.id) kinds
    left join lab_tests one on one.id = kinds.one_id) ordered`;

export const diagnosticReportTable: FhirTable<LabReportRow> = {
  sql: REPORTS,
  columns: {
    _id: 'id::int',
    _lastUpdated: 'updated_at::timestamptz',
    patient: 'patient_id::int',
    subject: 'patient_id::int',
    code: 'code_token::text',
    status: 'status::text',
    date: 'effective_at::timestamptz',
  },
  // Tokens and references a report holds several of: a condition on the report's own rows each.
  subqueries: {
    category: `r.categories && {values}::text[]`,
    'based-on': `r.request_ids && {values}::int[]`,
    specimen: `r.specimen_ids && {values}::int[]`,
    result: `r.result_ids && {values}::int[]`,
  },
  patientColumn: 'patient_id',
  releasedColumn: 'visible_at',
  toRow: (raw) => {
    const r = raw as unknown as ReportSql;
    return {
      ...versioned(r),
      orderNumber: r.order_number,
      patient: { id: r.patient_id, name: r.patient_name },
      doctor: { id: r.doctor_id, name: r.doctor_name },
      appointmentId: r.appointment_id,
      admissionId: r.admission_id,
      status: r.status,
      code: codeOf(r),
      categories: r.categories,
      effectiveAt: r.effective_at,
      issued: r.issued,
      requestIds: r.request_ids.map(Number),
      specimenIds: r.specimen_ids.map(Number),
      resultIds: r.result_ids.map(Number),
    };
  },
};
