import { notFound } from '../shared/errors.ts';
import type { Bed } from './inpatient.ts';
import type { InpatientDeps } from './ports.ts';

/** The bed locked until the transaction ends, for a change; a retired bed is answered as missing. */
export async function lockInService(tx: Pick<InpatientDeps, 'beds'>, id: number): Promise<Bed> {
  const bed = await tx.beds.lock(id);
  if (!bed || bed.retiredAt !== null) throw notFound('Bed');
  return bed;
}
