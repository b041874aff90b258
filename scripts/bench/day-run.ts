/**
 * Runs the hospital day's users: each arrives at their time, signs in once, then thinks and acts until the day
 * ends (an open model: a slow answer delays only its own user's next action, and the arrivals do not wait for the
 * servers). Also runs each action alone for a few seconds afterwards, to read its CPU cost.
 */
import { ACTIONS, type DayContext, type DayUser, signIn } from './day-actions.ts';
import { pickWeighted, ROLE_ACTIONS, seededRandom, thinkTimeMs, type DayAction, type DayRole } from './day-mix.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Picks made before a user with nothing left to do in their picks gives up this turn and thinks again. */
const PICKS_A_TURN = 4;

export interface DayPlan {
  users: DayUser[];
  arrivalsMs: number[];
  durationMs: number;
  thinkMeanMs: number;
  seed: number;
}

/** One user's context: the shared one with a generator of their own, so a user's choices do not depend on others'. */
const contextOf = (shared: Omit<DayContext, 'random'>, seed: number): DayContext => ({
  ...shared,
  random: seededRandom(seed),
});

/** One of the role's actions, chosen by weight. */
export const nextAction = (random: () => number, role: DayRole): DayAction =>
  pickWeighted(random, ROLE_ACTIONS[role] as Record<string, number>) as DayAction;

/** The day: resolves once every user's last action has been answered. Answers how many users signed in. */
export async function runDay(shared: Omit<DayContext, 'random'>, plan: DayPlan): Promise<number> {
  const started = performance.now();
  const endsAt = started + plan.durationMs;
  let signedIn = 0;
  await Promise.all(
    plan.users.map(async (user, i) => {
      const ctx = contextOf(shared, plan.seed * 100_003 + i);
      await sleep(Math.max(0, started + (plan.arrivalsMs[i] ?? 0) - performance.now()));
      if (performance.now() >= endsAt || !(await signIn(ctx, user))) return;
      signedIn++;
      for (;;) {
        await sleep(thinkTimeMs(ctx.random, plan.thinkMeanMs));
        if (performance.now() >= endsAt) return;
        for (let pickCount = 0; pickCount < PICKS_A_TURN; pickCount++)
          if (await ACTIONS[nextAction(ctx.random, user.role)](ctx, user)) break;
      }
    }),
  );
  return signedIn;
}

/**
 * `action` alone, `concurrency` users of its role at a time back to back for `ms`: how many times it ran. Runs that
 * found nothing to do are not counted.
 */
export async function runAlone(
  shared: Omit<DayContext, 'random'>,
  users: readonly DayUser[],
  action: DayAction,
  ms: number,
  seed: number,
): Promise<number> {
  const endsAt = performance.now() + ms;
  let runs = 0;
  await Promise.all(
    users.map(async (user, i) => {
      const ctx = contextOf(shared, seed + i);
      while (performance.now() < endsAt) {
        if (!(await ACTIONS[action](ctx, user))) return;
        runs++;
      }
    }),
  );
  return runs;
}

/** Signs `users` in again, back to back, `concurrency` at a time: how many sign-ins were sent. */
export async function signInsAlone(shared: Omit<DayContext, 'random'>, users: readonly DayUser[], ms: number) {
  const endsAt = performance.now() + ms;
  let runs = 0;
  await Promise.all(
    users.map(async (user, i) => {
      const ctx = contextOf(shared, i);
      while (performance.now() < endsAt) {
        await signIn(ctx, { ...user, token: undefined });
        runs++;
      }
    }),
  );
  return runs;
}
