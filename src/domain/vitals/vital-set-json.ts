import { clinicalResponse, isOverdue, raisesAlert } from './news2.ts';
import type { VitalSet, VitalsDeps } from './ports.ts';
import { temperatureIn } from './vital-signs.ts';
import type { VitalSetJson } from './vitals-shapes.ts';

/** The set as the API shows it: temperatures in the clinic's unit, NEWS2 with its response, overdue or not. */
export function vitalSetJson(
  deps: Pick<VitalsDeps, 'units' | 'temperatureUnit' | 'clock'>,
  set: VitalSet,
): VitalSetJson {
  const quantity = (vital: string) => {
    const m = set.measurements.find((x) => x.vital === vital);
    return m && 'value' in m ? m.value : null;
  };
  const celsius = quantity('temperature');
  const consciousness = set.measurements.find((m) => m.vital === 'consciousness');
  const oxygen = set.measurements.find((m) => m.vital === 'on_oxygen');
  const score = set.news2;
  const singleThree = score ? Object.values(score.parameters).includes(3) : false;
  return {
    id: set.id,
    patient: set.patient,
    admission_id: set.admissionId,
    appointment_id: set.appointmentId,
    effective_at: set.effectiveAt.toISOString(),
    recorded_at: set.recordedAt.toISOString(),
    recorded_by: set.recordedBy,
    version: set.version,
    values: {
      systolic: quantity('systolic'),
      diastolic: quantity('diastolic'),
      heart_rate: quantity('heart_rate'),
      respiratory_rate: quantity('respiratory_rate'),
      temperature: celsius === null ? null : temperatureIn(deps.units, celsius, deps.temperatureUnit),
      spo2: quantity('spo2'),
      on_oxygen: oxygen?.vital === 'on_oxygen' ? oxygen.code === 'oxygen' : null,
      consciousness: consciousness?.vital === 'consciousness' ? consciousness.code : null,
      weight: quantity('weight'),
      height: quantity('height'),
      bmi: quantity('bmi'),
      pain_score: quantity('pain_score'),
    },
    temperature_unit: deps.temperatureUnit,
    news2: score && {
      total: score.total,
      scale: score.scale,
      risk: score.risk,
      frequency: score.frequency,
      response: clinicalResponse(score.total, singleThree).response,
      single_three: singleThree,
      alert: raisesAlert(score.risk),
      parameters: score.parameters,
    },
    next_due_at: score ? score.nextDueAt.toISOString() : null,
    overdue: score ? isOverdue(score.nextDueAt, deps.clock.now()) : false,
  };
}
