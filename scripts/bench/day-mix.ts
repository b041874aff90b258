/**
 * The hospital day's population and rhythm, pure: who the users are (the shares of patients, doctors,
 * nurses, the desk and FHIR clients), which action each takes next (weighted within their role), how long they
 * think between actions (exponential, as the time between a person's clicks is), and when each arrives (spread
 * over a ramp, as staff and patients do not all sign in at the same second). All of it from a seeded generator,
 * so a run can be repeated action for action.
 */

export const DAY_ROLES = ['patient', 'doctor', 'nurse', 'desk', 'fhir'] as const;
export type DayRole = (typeof DAY_ROLES)[number];

/** The mix: the share of the users in each role. */
export const ROLE_SHARES: Record<DayRole, number> = {
  patient: 0.3,
  doctor: 0.25,
  nurse: 0.2,
  desk: 0.15,
  fhir: 0.1,
};

/** Each role's actions and how often each is chosen, relative to the others of the role. */
export const ROLE_ACTIONS = {
  patient: {
    'patient: doctors': 2,
    'patient: free slots': 3,
    'patient: book': 2,
    'patient: appointments': 3,
    'patient: records': 2,
    'patient: bills': 2,
    'patient: lab results': 2,
    'patient: prescriptions': 1,
  },
  doctor: {
    "doctor: day's agenda": 4,
    'doctor: appointments': 2,
    'doctor: patient': 3,
    'doctor: patient lab results': 2,
    'doctor: results to review': 2,
    'doctor: record visit': 2,
    'doctor: prescribe': 1,
    'doctor: NEWS2 alerts': 1,
  },
  nurse: {
    'nurse: bed board': 3,
    'nurse: flowsheet': 3,
    'nurse: record vitals': 4,
    'nurse: ward MAR': 3,
    'nurse: record dose': 3,
  },
  desk: {
    "desk: day's overview": 2,
    'desk: appointments': 2,
    'desk: check in': 3,
    'desk: take payment': 2,
    'desk: bed board': 2,
    'desk: find patient': 3,
  },
  fhir: {
    'fhir: search patients': 3,
    'fhir: search observations': 3,
    'fhir: search appointments': 2,
    'fhir: $everything page': 2,
    'fhir: export patient': 1,
  },
} as const satisfies Record<DayRole, Record<string, number>>;

export type DayAction = { [R in DayRole]: keyof (typeof ROLE_ACTIONS)[R] }[DayRole];
export const SIGN_IN = 'sign in';
export type Measured = DayAction | typeof SIGN_IN;

/** A generator of floats in [0, 1) from a 32-bit seed (mulberry32): small, fast and the same everywhere. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** One of `weights`' keys, each as likely as its weight over the sum; keys of weight 0 never. */
export function pickWeighted<K extends string>(random: () => number, weights: Readonly<Record<K, number>>): K {
  const entries = Object.entries(weights) as [K, number][];
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  if (!(total > 0)) throw new Error('pickWeighted needs a positive weight');
  let point = random() * total;
  for (const [key, weight] of entries) {
    if (point < weight) return key;
    point -= weight;
  }
  // Only rounding can reach here: the last key with any weight.
  const last = entries.filter(([, weight]) => weight > 0).at(-1);
  if (!last) throw new Error('pickWeighted needs a positive weight');
  return last[0];
}

/**
 * A think time in ms, exponential with mean `meanMs` (a memoryless pause, as between a person's actions), cut at
 * `maxMs` so one user cannot sleep through a short run.
 */
export function thinkTimeMs(random: () => number, meanMs: number, maxMs = meanMs * 6): number {
  return Math.min(maxMs, Math.max(0, -meanMs * Math.log(1 - random())));
}

/**
 * How many of `users` fall in each role: the shares rounded by largest remainder, so they add up to `users` and
 * every role with a share gets at least one user once there are as many users as roles.
 */
export function roleCounts(users: number, shares: Record<DayRole, number> = ROLE_SHARES): Record<DayRole, number> {
  const exact = DAY_ROLES.map((role) => ({ role, value: users * shares[role] }));
  const counts = Object.fromEntries(exact.map(({ role, value }) => [role, Math.floor(value)])) as Record<
    DayRole,
    number
  >;
  let left = users - DAY_ROLES.reduce((sum, role) => sum + counts[role], 0);
  const byRemainder = [...exact].sort((a, b) => b.value - Math.floor(b.value) - (a.value - Math.floor(a.value)));
  for (const { role } of byRemainder) {
    if (left === 0) break;
    counts[role] += 1;
    left -= 1;
  }
  return counts;
}

/** The users' roles in the order they arrive: each role's count, shuffled so that no role comes in a block. */
export function rolesInArrivalOrder(random: () => number, counts: Record<DayRole, number>): DayRole[] {
  const roles = DAY_ROLES.flatMap((role) => Array.from({ length: counts[role] }, () => role));
  for (let i = roles.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [roles[i], roles[j]] = [roles[j] as DayRole, roles[i] as DayRole];
  }
  return roles;
}

/** When each of `n` users arrives, in ms from the start: uniform over the ramp, so arrivals are a Poisson stream. */
export function arrivalTimesMs(random: () => number, n: number, rampMs: number): number[] {
  return Array.from({ length: n }, () => random() * rampMs).sort((a, b) => a - b);
}
