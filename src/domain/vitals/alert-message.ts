import { render, type Clinic, type Message } from '../notifications/message.ts';
import type { News2Risk } from './news2.ts';

/**
 * The e-mail to a patient's doctor when a set scores medium or high: the score and the response it calls for, no
 * values beyond them; one per version of the set (its dedupe key).
 */
export function news2AlertMessage(
  clinic: Clinic,
  alert: {
    setId: number;
    version: number;
    patientName: string;
    where: string;
    total: number;
    risk: News2Risk;
    response: string;
    doctor: { name: string; email: string; userId: number };
  },
  now: Date,
): Message {
  return {
    kind: 'news2_alert',
    dedupeKey: `news2_alert:set:${alert.setId}:${alert.version}`,
    to: alert.doctor.email,
    userId: alert.doctor.userId,
    appointmentId: null,
    subject: `NEWS2 ${alert.total} (${alert.risk} risk): ${alert.patientName}`,
    ...render(clinic, {
      greeting: `Dear ${alert.doctor.name},`,
      paragraphs: [
        `${alert.patientName} (${alert.where}) scored ${alert.total} on NEWS2, a ${alert.risk} clinical risk.`,
        alert.response,
      ],
    }),
    attachments: [],
    sendAfter: now,
  };
}
