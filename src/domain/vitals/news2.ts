/**
 * NEWS2, the National Early Warning Score 2 (Royal College of Physicians, December 2017): chart 1 (the scoring
 * table, SpO2 scales 1 and 2), chart 3 (clinical risk) and chart 4 (the response and the frequency of monitoring).
 */

export const ACVPU = ['A', 'C', 'V', 'P', 'U'] as const;
export type Acvpu = (typeof ACVPU)[number];
export type SpO2Scale = 1 | 2;

/** A complete set, as NEWS2 scores it: rates per minute, SpO2 in %, mm Hg, °C. */
export interface News2Set {
  respiratoryRate: number;
  spo2: number;
  onOxygen: boolean;
  systolic: number;
  pulse: number;
  consciousness: Acvpu;
  temperature: number;
}

export const NEWS2_PARAMETERS = [
  'respiratory_rate',
  'spo2',
  'air_or_oxygen',
  'systolic',
  'pulse',
  'consciousness',
  'temperature',
] as const;
export type News2Parameter = (typeof NEWS2_PARAMETERS)[number];

/** One row of chart 1: values up to `upTo` (inclusive) score `score`; rows in rising order, the last unbounded. */
interface Band {
  upTo: number;
  score: number;
}

export const RESPIRATION_BANDS: readonly Band[] = [
  { upTo: 8, score: 3 },
  { upTo: 11, score: 1 },
  { upTo: 20, score: 0 },
  { upTo: 24, score: 2 },
  { upTo: Number.POSITIVE_INFINITY, score: 3 },
];

export const SPO2_SCALE_1_BANDS: readonly Band[] = [
  { upTo: 91, score: 3 },
  { upTo: 93, score: 2 },
  { upTo: 95, score: 1 },
  { upTo: Number.POSITIVE_INFINITY, score: 0 },
];

/** Scale 2 (hypercapnic respiratory failure, a doctor's decision): 88–92 scores 0, and ≥93 on air does too. */
export const SPO2_SCALE_2_BANDS: readonly Band[] = [
  { upTo: 83, score: 3 },
  { upTo: 85, score: 2 },
  { upTo: 87, score: 1 },
  { upTo: 92, score: 0 },
];
/** Scale 2 above 92 % while on oxygen. */
export const SPO2_SCALE_2_ON_OXYGEN_BANDS: readonly Band[] = [
  { upTo: 94, score: 1 },
  { upTo: 96, score: 2 },
  { upTo: Number.POSITIVE_INFINITY, score: 3 },
];

export const SYSTOLIC_BANDS: readonly Band[] = [
  { upTo: 90, score: 3 },
  { upTo: 100, score: 2 },
  { upTo: 110, score: 1 },
  { upTo: 219, score: 0 },
  { upTo: Number.POSITIVE_INFINITY, score: 3 },
];

export const PULSE_BANDS: readonly Band[] = [
  { upTo: 40, score: 3 },
  { upTo: 50, score: 1 },
  { upTo: 90, score: 0 },
  { upTo: 110, score: 1 },
  { upTo: 130, score: 2 },
  { upTo: Number.POSITIVE_INFINITY, score: 3 },
];

/** Chart 1 gives temperature to one decimal: 35.0, 35.1–36.0, 36.1–38.0, 38.1–39.0, 39.1. */
export const TEMPERATURE_BANDS: readonly Band[] = [
  { upTo: 35.0, score: 3 },
  { upTo: 36.0, score: 1 },
  { upTo: 38.0, score: 0 },
  { upTo: 39.0, score: 1 },
  { upTo: Number.POSITIVE_INFINITY, score: 2 },
];

const AIR_OR_OXYGEN_SCORE = { air: 0, oxygen: 2 } as const;
/** New confusion (C), voice (V), pain (P) or unresponsive (U) all score 3. */
const CONSCIOUSNESS_SCORE: Record<Acvpu, number> = { A: 0, C: 3, V: 3, P: 3, U: 3 };

const bandScore = (bands: readonly Band[], value: number): number =>
  bands.find((band) => value <= band.upTo)?.score ?? 0;

const tenths = (value: number) => Math.round(value * 10) / 10;

function spo2Score(spo2: number, onOxygen: boolean, scale: SpO2Scale): number {
  if (scale === 1) return bandScore(SPO2_SCALE_1_BANDS, spo2);
  if (spo2 <= 92 || !onOxygen) return bandScore(SPO2_SCALE_2_BANDS, spo2);
  return bandScore(SPO2_SCALE_2_ON_OXYGEN_BANDS, spo2);
}

export type News2Risk = 'low' | 'low-medium' | 'medium' | 'high';
export type MonitoringFrequency = '12-hourly' | '4-6-hourly' | 'hourly' | 'continuous';

export interface News2Score {
  total: number;
  scale: SpO2Scale;
  parameters: Record<News2Parameter, number>;
  /** A single parameter scores 3: the low-medium trigger. */
  singleThree: boolean;
  risk: News2Risk;
  frequency: MonitoringFrequency;
  response: string;
}

/** Chart 1: each parameter's score and the total; whole numbers but temperature, which is scored to one decimal. */
export function news2(set: News2Set, scale: SpO2Scale): News2Score {
  const parameters: Record<News2Parameter, number> = {
    respiratory_rate: bandScore(RESPIRATION_BANDS, Math.round(set.respiratoryRate)),
    spo2: spo2Score(Math.round(set.spo2), set.onOxygen, scale),
    air_or_oxygen: AIR_OR_OXYGEN_SCORE[set.onOxygen ? 'oxygen' : 'air'],
    systolic: bandScore(SYSTOLIC_BANDS, Math.round(set.systolic)),
    pulse: bandScore(PULSE_BANDS, Math.round(set.pulse)),
    consciousness: CONSCIOUSNESS_SCORE[set.consciousness],
    temperature: bandScore(TEMPERATURE_BANDS, tenths(set.temperature)),
  };
  const total = Object.values(parameters).reduce((sum, score) => sum + score, 0);
  const singleThree = Object.values(parameters).some((score) => score === 3);
  return { total, scale, parameters, singleThree, ...clinicalResponse(total, singleThree) };
}

/** Charts 3 and 4: the clinical risk, the frequency of monitoring and the response a total calls for. */
export function clinicalResponse(
  total: number,
  singleThree: boolean,
): { risk: News2Risk; frequency: MonitoringFrequency; response: string } {
  if (total >= 7)
    return {
      risk: 'high',
      frequency: 'continuous',
      response:
        'Emergency response: inform the medical team at once (at least specialist registrar level); emergency assessment by a team with critical care competencies; consider transfer to level 2 or 3 care.',
    };
  if (total >= 5)
    return {
      risk: 'medium',
      frequency: 'hourly',
      response:
        'Urgent response: inform the medical team at once; urgent assessment by a clinician competent in the care of acutely ill patients.',
    };
  if (singleThree)
    return {
      risk: 'low-medium',
      frequency: 'hourly',
      response:
        'Urgent ward-based response: inform the medical team, who review and decide whether care must be escalated.',
    };
  if (total >= 1)
    return {
      risk: 'low',
      frequency: '4-6-hourly',
      response: 'A registered nurse assesses the patient and decides whether to observe more often or escalate.',
    };
  return { risk: 'low', frequency: '12-hourly', response: 'Continue routine NEWS2 monitoring.' };
}

/**
 * Minutes until the next set is due at each frequency: the shorter end of "4–6-hourly"; for continuous monitoring
 * the clinic still charts a set every 15 minutes, so a missed one shows.
 */
export const DUE_MINUTES: Record<MonitoringFrequency, number> = {
  '12-hourly': 12 * 60,
  '4-6-hourly': 4 * 60,
  hourly: 60,
  continuous: 15,
};

export const nextDue = (takenAt: Date, frequency: MonitoringFrequency): Date =>
  new Date(takenAt.getTime() + DUE_MINUTES[frequency] * 60_000);

export const isOverdue = (due: Date, now: Date): boolean => now.getTime() > due.getTime();

/** Medium and high risk alert the ward and the patient's doctor. */
export const raisesAlert = (risk: News2Risk): risk is 'medium' | 'high' => risk === 'medium' || risk === 'high';
