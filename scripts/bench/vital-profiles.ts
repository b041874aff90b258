/**
 * The vital-sign sets the clinical dataset charts, scored by Medora's own NEWS2 (src/domain/vitals/news2.ts) so
 * the generated totals, risks, frequencies and due times are the ones a nurse recording the same values would get.
 * Pure: the generator turns these into a `values` list.
 */
import {
  DUE_MINUTES,
  news2,
  type Acvpu,
  type MonitoringFrequency,
  type News2Risk,
} from '../../src/domain/vitals/news2.ts';

export interface VitalValues {
  respiratoryRate: number;
  spo2: number;
  onOxygen: boolean;
  systolic: number;
  diastolic: number;
  pulse: number;
  consciousness: Acvpu;
  temperature: number;
}

export interface VitalProfile extends VitalValues {
  total: number;
  risk: News2Risk;
  frequency: MonitoringFrequency;
  parameters: Record<string, number>;
  dueMinutes: number;
}

/** Patients who are well: NEWS2 0 to 2, observed 4–6-hourly or 12-hourly. */
const STABLE: VitalValues[] = [
  {
    respiratoryRate: 16,
    spo2: 98,
    onOxygen: false,
    systolic: 124,
    diastolic: 78,
    pulse: 72,
    consciousness: 'A',
    temperature: 36.8,
  },
  {
    respiratoryRate: 14,
    spo2: 97,
    onOxygen: false,
    systolic: 132,
    diastolic: 84,
    pulse: 66,
    consciousness: 'A',
    temperature: 37.0,
  },
  {
    respiratoryRate: 18,
    spo2: 96,
    onOxygen: false,
    systolic: 118,
    diastolic: 74,
    pulse: 88,
    consciousness: 'A',
    temperature: 36.6,
  },
  {
    respiratoryRate: 20,
    spo2: 95,
    onOxygen: false,
    systolic: 140,
    diastolic: 88,
    pulse: 94,
    consciousness: 'A',
    temperature: 37.4,
  },
  {
    respiratoryRate: 12,
    spo2: 99,
    onOxygen: false,
    systolic: 110,
    diastolic: 70,
    pulse: 58,
    consciousness: 'A',
    temperature: 36.4,
  },
  {
    respiratoryRate: 16,
    spo2: 95,
    onOxygen: false,
    systolic: 150,
    diastolic: 92,
    pulse: 80,
    consciousness: 'A',
    temperature: 37.8,
  },
  {
    respiratoryRate: 17,
    spo2: 97,
    onOxygen: false,
    systolic: 128,
    diastolic: 80,
    pulse: 76,
    consciousness: 'A',
    temperature: 36.9,
  },
  {
    respiratoryRate: 19,
    spo2: 96,
    onOxygen: false,
    systolic: 136,
    diastolic: 86,
    pulse: 84,
    consciousness: 'A',
    temperature: 37.2,
  },
];

/** A patient who deteriorates over the last day: NEWS2 1, 2, 3, 5, 6 and 7, the last sets of the 72 hours. */
const DETERIORATING: VitalValues[] = [
  {
    respiratoryRate: 20,
    spo2: 95,
    onOxygen: false,
    systolic: 120,
    diastolic: 76,
    pulse: 86,
    consciousness: 'A',
    temperature: 37.6,
  },
  {
    respiratoryRate: 20,
    spo2: 95,
    onOxygen: false,
    systolic: 118,
    diastolic: 74,
    pulse: 92,
    consciousness: 'A',
    temperature: 37.8,
  },
  {
    respiratoryRate: 21,
    spo2: 95,
    onOxygen: false,
    systolic: 116,
    diastolic: 72,
    pulse: 88,
    consciousness: 'A',
    temperature: 37.9,
  },
  {
    respiratoryRate: 22,
    spo2: 94,
    onOxygen: false,
    systolic: 108,
    diastolic: 66,
    pulse: 96,
    consciousness: 'A',
    temperature: 37.9,
  },
  {
    respiratoryRate: 22,
    spo2: 93,
    onOxygen: false,
    systolic: 108,
    diastolic: 66,
    pulse: 96,
    consciousness: 'A',
    temperature: 37.9,
  },
  {
    respiratoryRate: 23,
    spo2: 93,
    onOxygen: false,
    systolic: 104,
    diastolic: 64,
    pulse: 104,
    consciousness: 'A',
    temperature: 38.4,
  },
];

const scored = (values: VitalValues): VitalProfile => {
  const score = news2({ ...values }, 1);
  return {
    ...values,
    total: score.total,
    risk: score.risk,
    frequency: score.frequency,
    parameters: score.parameters,
    dueMinutes: DUE_MINUTES[score.frequency],
  };
};

/** Profiles 0 … STABLE-1 are stable; then the deteriorating steps in order. */
export const VITAL_PROFILES: readonly VitalProfile[] = [...STABLE, ...DETERIORATING].map(scored);
export const STABLE_PROFILES = STABLE.length;
export const DETERIORATING_STEPS = DETERIORATING.length;
