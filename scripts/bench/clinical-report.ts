/**
 * The clinical run's figures (clinical.ts): each read's p50/p95 on Medora and on its twin at every scale, how full
 * its answer was at each, and its growth from the smallest hospital to the largest, the median over rounds in which
 * both were loaded together; the clinical writes against their twins. Pure: the runner measures, this summarises.
 */
import { combine, cpuPerRequestUs, nth, round, type Measurement } from './load.ts';
import { median, percent, quantile, roundGrowth, TARGETS } from './report.ts';

/** How full one answer was: the items the read lists (beds, sets, results, entries…) and its bytes. */
export interface Fill {
  items: number;
  bytes: number;
}

/** One read's rounds at one scale: the i-th Medora turn and the i-th twin turn ran at the same moment. */
export interface ScaleTurns {
  scale: number;
  fill: Fill;
  medora: Measurement[];
  twin: Measurement[];
}

export interface Figures {
  requests_per_second: number;
  p50_ms: number;
  p95_ms: number;
  errors: number;
  cpu_us_per_answer: number | undefined;
}

export interface ClinicalRead {
  name: string;
  at: { scale: number; fill: Fill; medora: Figures; twin: Figures }[];
  /** Largest hospital over smallest, median over rounds; p95 as well as p50. */
  growth: {
    p50: number | undefined;
    p95: number | undefined;
    twin_p50: number | undefined;
    twin_p95: number | undefined;
  };
  /**
   * The answers were as full at every scale (their mean items within EQUAL_FILL of the smallest hospital's): the
   * growth is then the query's, not the answer's.
   */
  equal_fill: boolean;
}

export interface ClinicalWrite {
  name: string;
  medora: Figures;
  twin: Figures;
  /** Median over rounds of Medora's answers a second over its twin's in the same round. */
  ratio: number;
}

/** Mean items a page within this share of each other count as equally full. */
export const EQUAL_FILL = 0.1;

const p95 = (latencies: number[]) => round(quantile(latencies, 0.95), 2);

export function figuresOf(rounds: Measurement[]): Figures {
  const all = combine(rounds);
  return {
    requests_per_second: all.requestsPerSecond,
    p50_ms: all.p50Ms,
    p95_ms: p95(all.latenciesMs),
    errors: all.errors,
    cpu_us_per_answer: cpuPerRequestUs(all),
  };
}

export function clinicalRead(name: string, scales: ScaleTurns[]): ClinicalRead {
  const first = nth(scales, 0);
  const last = nth(scales, scales.length - 1);
  const grown = (pick: (m: Measurement) => number, side: 'medora' | 'twin') =>
    scales.length < 2 ? undefined : roundGrowth(first[side].map(pick), last[side].map(pick));
  const p95Of = (m: Measurement) => p95(m.latenciesMs);
  return {
    name,
    at: scales.map((s) => ({ scale: s.scale, fill: s.fill, medora: figuresOf(s.medora), twin: figuresOf(s.twin) })),
    growth: {
      p50: grown((m) => m.p50Ms, 'medora'),
      p95: grown(p95Of, 'medora'),
      twin_p50: grown((m) => m.p50Ms, 'twin'),
      twin_p95: grown(p95Of, 'twin'),
    },
    equal_fill: scales.every((s) => Math.abs(s.fill.items - first.fill.items) <= EQUAL_FILL * first.fill.items),
  };
}

export function clinicalWrite(name: string, medora: Measurement[], twin: Measurement[]): ClinicalWrite {
  const ratios = medora.map((m, r) => m.requestsPerSecond / nth(twin, r).requestsPerSecond);
  return { name, medora: figuresOf(medora), twin: figuresOf(twin), ratio: round(median(ratios), 3) };
}

const times = (n: number | undefined) => (n === undefined ? '–' : `${n.toFixed(2)} ×`);

/** The two tables of the README: reads at each scale with their growth, and the writes against their twins. */
export function clinicalTables(reads: ClinicalRead[], writes: ClinicalWrite[]): string[] {
  const scales = reads[0]?.at.map((a) => a.scale) ?? [];
  const readHead = [
    '| clinical read | items a page | ' +
      scales.map((s) => `p50 / p95 ms at ${percent(s)}`).join(' | ') +
      ' | p50 growth | twin p50 growth | p95 growth |',
    `|---|---|${scales.map(() => '---|').join('')}---|---|---|`,
  ];
  const readRows = reads.map(
    (r) =>
      `| ${r.name} | ${r.at.map((a) => a.fill.items).join(' / ')} | ` +
      r.at.map((a) => `${a.medora.p50_ms} / ${a.medora.p95_ms}`).join(' | ') +
      ` | ${times(r.growth.p50)} | ${times(r.growth.twin_p50)} | ${times(r.growth.p95)} |`,
  );
  const writeRows = writes.map(
    (w) =>
      `| ${w.name} | ${w.ratio.toFixed(2)} | ${w.medora.requests_per_second} / ${w.twin.requests_per_second} | ` +
      `${w.medora.p50_ms} / ${w.medora.p95_ms} | ${w.medora.cpu_us_per_answer ?? '–'} / ${w.twin.cpu_us_per_answer ?? '–'} |`,
  );
  return [
    ...readHead,
    ...readRows,
    '',
    '| clinical write | ratio to twin | answers/s Medora / twin | Medora p50 / p95 ms | CPU µs/answer Medora / twin |',
    '|---|---|---|---|---|',
    ...writeRows,
  ];
}

/** Which targets were missed: a read's p50 growth above 1.5 ×, a write under 0.9 × its twin. */
export function clinicalMisses(reads: ClinicalRead[], writes: ClinicalWrite[]): string[] {
  return [
    ...reads
      .filter((r) => r.growth.p50 !== undefined && r.growth.p50 > TARGETS.p50Growth)
      .map((r) => `${r.name}: p50 growth ${times(r.growth.p50)} > ${TARGETS.p50Growth} ×`),
    ...writes
      .filter((w) => w.ratio < TARGETS.writeTwinRatio)
      .map((w) => `${w.name}: ${w.ratio.toFixed(2)} × its twin < ${TARGETS.writeTwinRatio}`),
  ];
}

/** bench/results.json with its `clinical_reads` section set, every other section kept as it was. */
export function mergeClinical(existing: string | undefined, section: unknown): string {
  const parsed: unknown = existing ? JSON.parse(existing) : {};
  const base = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
  return `${JSON.stringify({ ...base, clinical_reads: section }, null, 2)}\n`;
}
