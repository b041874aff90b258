/**
 * `answer`, or a failure naming `what` once `ms` have passed without it: the bound on a wait that, done right, ends
 * long before (ten times its expected time, or short of a grace the test set far longer), never a measure of speed.
 */
export async function within<T>(answer: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}
