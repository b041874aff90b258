import { criticalResult } from '../notifications/templates.ts';
import { ownDoctorId, type Actor } from '../shared/actor.ts';
import type { LabDeps } from './ports.ts';

/**
 * Writes, in the transaction that raised them, each critical alert's e-mails: to the ordering doctor now, and to
 * each other doctor of their department at the alert's escalation time (the outbox skips those once acknowledged).
 */
export async function tellCriticalAlerts(tx: LabDeps, alertIds: readonly number[]): Promise<void> {
  if (alertIds.length === 0) return;
  const now = tx.clock.now();
  for (const { notice, orderingDoctor, department } of await tx.lab.criticalRecipients(alertIds)) {
    await tx.outbox.enqueue(criticalResult(tx.clinic, notice, orderingDoctor, false, now));
    for (const doctor of department) await tx.outbox.enqueue(criticalResult(tx.clinic, notice, doctor, true, now));
  }
}

/**
 * The critical results standing as alerts on the doctor's day: their own orders' at once, their department's once
 * unacknowledged for 30 minutes (when they may acknowledge them too).
 */
export async function standingAlerts(deps: LabDeps, actor: Actor) {
  const doctorId = ownDoctorId(actor, 'Only doctors have critical results to acknowledge');
  const now = deps.clock.now();
  return deps.lab.openAlerts(doctorId, now);
}
