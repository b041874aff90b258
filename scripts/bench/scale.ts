/** How big the benchmark hospital is, and the calendar its appointments cover. */
export interface HospitalSize {
  doctors: number;
  patients: number;
  appointments: number;
  departments: number;
  specializations: number;
  diseases: number;
  roomsPerDepartment: number;
  /** Days of appointments before today, and from today on; together two years. */
  pastDays: number;
  futureDays: number;
  /** Every doctor works every weekday from 08:00 in slots of this many minutes. */
  slotsPerDay: number;
  slotMinutes: number;
}

const FULL: HospitalSize = {
  doctors: 300,
  patients: 100_000,
  appointments: 1_000_000,
  departments: 18,
  specializations: 24,
  diseases: 40,
  roomsPerDepartment: 6,
  // Three quarters of two years lie in the past; 80 % of past appointments are completed with a record and
  // a bill, which gives the 600,000 records out of 1,000,000 appointments.
  pastDays: 548,
  futureDays: 182,
  slotsPerDay: 40,
  slotMinutes: 15,
};

/** `group`: a hospital group's ten years, 3,000 doctors, 1,000,000 patients and 10,000,000 appointments. */
export const SCALES = { full: 1, small: 0.01, group: 10 } as const;
export type ScaleName = keyof typeof SCALES;

/** `--growth`: the reads at 1 %, 10 %, 100 % and 1,000 % of the hospital, to see how latency grows with the data. */
export const GROWTH_SCALES = [0.01, 0.1, 1, 10];

const LARGEST_SCALE = SCALES.group;

/** `--scale full`, `--scale 0.1` or a series such as `--scale 0.01,0.1,1`: distinct shares, smallest first. */
export function parseScales(value: string): number[] {
  const scales = value.split(',').map((part) => parseScale(part.trim()));
  return [...new Set(scales)].sort((a, b) => a - b);
}

/** `--scale small`, `--scale 0.1` or `--scale 10`: the multiple of the full-size hospital, over 0 and up to 10. */
export function parseScale(value: string): number {
  if (value in SCALES) return SCALES[value as ScaleName];
  const factor = Number(value);
  if (!Number.isFinite(factor) || factor <= 0 || factor > LARGEST_SCALE) {
    throw new Error(`--scale must be "full", "small", "group" or a number in (0, ${LARGEST_SCALE}], got "${value}"`);
  }
  return factor;
}

/**
 * People and appointments shrink with the scale; the catalogue and the calendar do not, so a small hospital
 * still has every department and two years of history, only fewer doctors and patients in it.
 */
export function hospitalSize(factor: number): HospitalSize {
  const scaled = (n: number, min: number) => Math.max(min, Math.round(n * factor));
  const size = {
    ...FULL,
    doctors: scaled(FULL.doctors, 3),
    patients: scaled(FULL.patients, 100),
    appointments: scaled(FULL.appointments, 1_000),
  };
  const capacity = slotCapacity(size);
  if (size.appointments > capacity)
    throw new Error(`${size.appointments} appointments do not fit in ${capacity} slots`);
  return size;
}

/** Every bookable (doctor, date, start time) of the calendar. */
export function slotCapacity(size: HospitalSize): number {
  return size.doctors * (size.pastDays + size.futureDays) * size.slotsPerDay;
}

/**
 * A multiplier that walks all of 0 … capacity-1 without repeating: a prime that does not divide the
 * capacity. `(n * stride) % capacity` then spreads appointments evenly over doctors, days and times and
 * never puts two on one slot, so the generator needs no retry loop.
 */
export function slotStride(capacity: number): number {
  for (let candidate = 1_000_003; ; candidate += 2) {
    if (isPrime(candidate) && capacity % candidate !== 0) return candidate;
  }
}

function isPrime(n: number): boolean {
  if (n < 2) return false;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
  return true;
}
