/** Money is integer cents everywhere below the edges; these convert at the edges. */
export const MAX_AMOUNT_CENTS = 100_000_000; // $1,000,000.00: no single clinic bill is larger

/** Parses "12", "12.5", "12.50" or 12.5 into cents; undefined when not a non-negative amount with ≤ 2 decimals. */
export function parseCents(raw: unknown): number | undefined {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export function formatUsd(cents: number): string {
  return usd.format(cents / 100);
}

/** Cents as a plain decimal string with two places, e.g. 1234 → "12.34". */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
