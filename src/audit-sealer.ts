import { SEAL_INTERVAL_MS } from './domain/audit/audit.ts';

export interface AuditSealer {
  /** No turn starts after this; resolves once the turn under way, if any, has ended (before the database closes). */
  stop(): Promise<void>;
}

/**
 * Seals the audit trail's committed rows into the chain every `intervalMs` while `medora serve` or `medora worker`
 * runs. Every instance tries; the database elects one per turn, so several instances seal one chain. A failure is
 * logged once, with the recovery, not every turn: the database being away would otherwise flood the log.
 */
export function sealAuditContinuously(
  audit: { sealTrail(): Promise<number | null> },
  log: (line: string) => void,
  intervalMs = SEAL_INTERVAL_MS,
): AuditSealer {
  let stopped = false;
  let failing = false;
  let timer: NodeJS.Timeout | undefined;
  let turn: Promise<void> = Promise.resolve();
  const seal = async () => {
    try {
      await audit.sealTrail();
      if (failing) log('audit: sealing works again');
      failing = false;
    } catch (error) {
      if (!failing) log(`audit: sealing failed: ${(error as Error).message}; trying again every ${intervalMs} ms`);
      failing = true;
    }
    // One turn after another, never two at once, however long a turn takes.
    if (!stopped) timer = setTimeout(next, intervalMs).unref();
  };
  const next = () => {
    turn = seal();
  };
  next();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await turn;
    },
  };
}
