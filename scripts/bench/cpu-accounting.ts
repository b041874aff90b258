/**
 * The arithmetic of CPU per answer (cpu-per-answer.ts), without I/O: a process's CPU time from its /proc stat line,
 * the CPU a set of PostgreSQL backends spent between two readings, the order of the servers in each round, and the
 * median round.
 */
import { median } from './report.ts';

/** USER_HZ: /proc counts CPU time in ticks of a hundredth of a second on every Linux this runs on. */
const TICKS_PER_SECOND = 100;

/** utime + stime of a /proc/<pid>/stat line (all the process's threads), in microseconds. */
export function cpuUsOfStat(stat: string): number {
  // The fields after the command name, which is in parentheses and may hold spaces and parentheses: utime and stime
  // are fields 14 and 15 of the line, 12 and 13 after it.
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime))
    throw new Error(`not a /proc stat line: ${stat.slice(0, 80)}`);
  return ((utime + stime) * 1e6) / TICKS_PER_SECOND;
}

/**
 * The CPU the backends spent between two readings (pid → CPU µs so far). A backend seen only at the end started in
 * between, so all its time counts; one seen only at the start ended in between, and its last stretch is lost (it is
 * counted in `lost`, so a run can say how many there were — under load a pool keeps its connections).
 */
export function backendsCpuUs(
  before: ReadonlyMap<number, number>,
  after: ReadonlyMap<number, number>,
): { us: number; backends: number; lost: number } {
  let us = 0;
  for (const [pid, now] of after) us += now - (before.get(pid) ?? 0);
  const lost = [...before.keys()].filter((pid) => !after.has(pid)).length;
  return { us, backends: after.size, lost };
}

/** One server's turn in one round: answers, and the CPU its process and its backends spent meanwhile. */
export interface CpuTurn {
  answers: number;
  /** Answers other than the expected status. */
  errors: number;
  serverUs: number;
  databaseUs: number;
}

/** Microseconds of CPU per answer: the server's, the database's, and both. */
export interface CpuPerAnswer {
  server: number;
  database: number;
  total: number;
}

export function perAnswer(turn: CpuTurn): CpuPerAnswer {
  const per = (us: number) => (turn.answers === 0 ? Number.NaN : us / turn.answers);
  return {
    server: per(turn.serverUs),
    database: per(turn.databaseUs),
    total: per(turn.serverUs + turn.databaseUs),
  };
}

/** Round `r` loads Medora then its twin, the next the twin then Medora: neither always goes first. */
export const roundOrder = (r: number): ('medora' | 'twin')[] => (r % 2 === 0 ? ['medora', 'twin'] : ['twin', 'medora']);

export interface CpuRow {
  name: string;
  rounds: number;
  /** The median round's figures of each server, µs per answer (each part the median of its own). */
  medora: CpuPerAnswer;
  twin: CpuPerAnswer;
  /** Medora's total over its twin's in each round, and their median: the figure judged. */
  roundRatios: number[];
  ratio: number;
  /**
   * Medora's process over the twin's, µs per answer, as the median of the rounds' differences: both run the same
   * statements and build the same JSON, so this is the framework's own cost of an answer.
   */
  frameworkUs: number;
  answers: { medora: number; twin: number };
  errors: { medora: number; twin: number };
}

/** A read's rounds as one row: medians over the rounds, never totals, so one disturbed round moves nothing. */
export function cpuRow(name: string, rounds: { medora: CpuTurn; twin: CpuTurn }[]): CpuRow {
  const m = rounds.map((r) => perAnswer(r.medora));
  const t = rounds.map((r) => perAnswer(r.twin));
  const medianOf = (per: CpuPerAnswer[]): CpuPerAnswer => ({
    server: median(per.map((p) => p.server)),
    database: median(per.map((p) => p.database)),
    total: median(per.map((p) => p.total)),
  });
  const roundRatios = m.map((p, i) => p.total / (t[i]?.total ?? Number.NaN));
  const sum = (pick: (r: { medora: CpuTurn; twin: CpuTurn }) => number) => rounds.reduce((s, r) => s + pick(r), 0);
  return {
    name,
    rounds: rounds.length,
    medora: medianOf(m),
    twin: medianOf(t),
    roundRatios,
    ratio: median(roundRatios),
    frameworkUs: median(m.map((p, i) => p.server - (t[i]?.server ?? Number.NaN))),
    answers: { medora: sum((r) => r.medora.answers), twin: sum((r) => r.twin.answers) },
    errors: { medora: sum((r) => r.medora.errors), twin: sum((r) => r.twin.errors) },
  };
}
