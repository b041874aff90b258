import type { ObservationComponentRow } from '../domain/fhir/vital-observation.ts';
import { BLOOD_PRESSURE, NEWS2_ID_PREFIX, FLUID_ID_PREFIX, NEWS2_SNOMED } from '../domain/fhir/vital-observation.ts';
import { NEWS2_PARAMETERS, type News2Parameter } from '../domain/vitals/news2.ts';
import { QUANTITY_VITALS } from '../domain/vitals/vital-signs.ts';

// The ward's Observations beside the lab's (issue 49), with the lab select's columns in its order (fhir-lab.pg.ts):
// a set's vital signs (its systolic row carrying both pressures, its diastolic row not answering alone), its NEWS2
// and each fluid event. None waits for a release: the patient sees them as they are recorded.

const PATIENT = 'join patients p on p.id = {row}.patient_id join users pu on pu.id = p.user_id';
const SYSTOLIC = QUANTITY_VITALS.systolic.code;
const DIASTOLIC = QUANTITY_VITALS.diastolic.code;
const BP = BLOOD_PRESSURE.code;
/** Consciousness (ACVPU) and supplemental oxygen are findings of the set, not vital signs' measurements. */
const EXAM_CODES = `('67775-7', 'inspired-oxygen')`;

const pressure = (o: string) =>
  `json_build_object('system', ${o}.code_system, 'code', ${o}.code, 'name', ${o}.display,
     'value', ${o}.value_quantity, 'unit', ${o}.value_unit)`;

export const VITAL_OBSERVATIONS = `
  select 'vital' as kind, ob.id::text as fhir_id, ob.id, greatest(v.recorded_at, dv.recorded_at) as updated_at,
         ob.version, ob.patient_id, pu.name as patient_name,
         case when ob.code in ${EXAM_CODES} then 'exam' else 'vital-signs' end as category, ob.code_system,
         case when dia.id is null then ob.code else '${BP}' end as code,
         case when dia.id is null then ob.display else '${BLOOD_PRESSURE.name}' end as code_name,
         ob.code_system || '|' || case when dia.id is null then ob.code else '${BP}' end as code_token,
         case when dia.id is null then ob.value_type else 'none' end as value_type,
         case when dia.id is null then ob.value_quantity end as value_quantity, ob.value_unit, ob.value_code,
         ob.value_text, null::text as interpretation, null::numeric as range_low, null::numeric as range_high,
         ob.status, ob.effective_at, null::int as order_item_id, null::int as report_id, null::int as specimen_id,
         ob.recorded_at as visible_at,
         case when dia.id is not null then json_build_array(${pressure('ob')}, ${pressure('dia')}) end as components,
         null::text as method, s.appointment_id, s.admission_id
  from observations ob join observation_versions v on v.observation_id = ob.id and v.version = ob.version
  join vital_sign_sets s on s.id = ob.vital_set_id
  left join observations dia on ob.code = '${SYSTOLIC}' and dia.vital_set_id = ob.vital_set_id and dia.code = '${DIASTOLIC}'
  left join observation_versions dv on dv.observation_id = dia.id and dv.version = dia.version
  ${PATIENT.replaceAll('{row}', 'ob')}
  where ob.code <> '${DIASTOLIC}'
  union all
  select 'news2', '${NEWS2_ID_PREFIX}' || s.id::text, s.id, sv.recorded_at, s.version, s.patient_id, pu.name, 'survey',
         'snomed', '${NEWS2_SNOMED}', 'NEWS2 total score', 'snomed|${NEWS2_SNOMED}', 'quantity', s.news2_total::numeric,
         '{score}', null, null, null, null, null, case when s.version = 1 then 'final' else 'corrected' end,
         s.effective_at, null, null, null, s.recorded_at,
         json_build_object('parameters', s.news2_parameters, 'risk', s.news2_risk), null, s.appointment_id, s.admission_id
  from vital_sign_sets s join vital_sign_set_versions sv on sv.set_id = s.id and sv.version = s.version
  ${PATIENT.replaceAll('{row}', 's')}
  where s.news2_total is not null
  union all
  select 'fluid', '${FLUID_ID_PREFIX}' || f.id::text, f.id, f.recorded_at, 1, f.patient_id, pu.name, 'exam', 'nursing',
         'fluid-' || f.kind, case f.kind when 'intake' then 'Fluid intake' else 'Fluid output' end,
         'nursing|fluid-' || f.kind, 'quantity', f.volume_ml::numeric, 'mL', null, null, null, null, null, 'final',
         f.effective_at, null, null, null, f.recorded_at, null, f.route, null, f.admission_id
  from fluid_events f ${PATIENT.replaceAll('{row}', 'f')}`;

const NEWS2_NAMES: Record<News2Parameter, string> = {
  respiratory_rate: 'NEWS2 respiration rate score',
  spo2: 'NEWS2 SpO2 score',
  air_or_oxygen: 'NEWS2 air or oxygen score',
  systolic: 'NEWS2 systolic blood pressure score',
  pulse: 'NEWS2 pulse score',
  consciousness: 'NEWS2 consciousness score',
  temperature: 'NEWS2 temperature score',
};

interface PressureJson {
  system: 'loinc';
  code: string;
  name: string;
  value: number;
  unit: string;
}

/** The components a ward row's select gave: blood pressure's two, or NEWS2's scores and risk. */
export function componentsOf(kind: string, raw: unknown): ObservationComponentRow[] {
  if (raw === null || raw === undefined) return [];
  if (kind === 'news2') {
    const { parameters, risk } = raw as { parameters: Record<News2Parameter, number>; risk: string };
    return [
      ...NEWS2_PARAMETERS.map((p) => ({
        code: { system: 'nursing' as const, code: `news2-${p.replaceAll('_', '-')}`, name: NEWS2_NAMES[p] },
        value: { type: 'quantity' as const, value: Number(parameters[p]), unit: '{score}' },
      })),
      {
        code: { system: 'nursing', code: 'news2-risk', name: 'NEWS2 clinical risk' },
        value: { type: 'text', text: risk },
      },
    ];
  }
  return (raw as PressureJson[]).map((c) => ({
    code: { system: c.system, code: c.code, name: c.name },
    value: { type: 'quantity', value: Number(c.value), unit: c.unit },
  }));
}
