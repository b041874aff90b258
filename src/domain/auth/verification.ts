/** E-mail verification: a one-time link to the address, which must still be the account's when it is followed. */
import type { Notifying } from '../notifications/ports.ts';
import type { Clinic } from '../notifications/message.ts';
import { emailVerification, type VerificationPurpose } from '../notifications/templates.ts';

/** A verification link works this long: a change of sign-in address also needs the password, so the link alone is not enough. */
export const VERIFICATION_DAYS = 7;

/** Writes the verification message of `user.email` (their current address, or the one waiting for them), in the caller's transaction. */
export async function sendVerification(
  settings: { clinic: Clinic },
  tx: Notifying,
  user: { id: number; name: string; email: string },
  now: Date,
  purpose: VerificationPurpose = 'own',
): Promise<void> {
  const linkId = await tx.links.prepare({
    kind: 'verify_email',
    userId: user.id,
    appointmentId: null,
    email: user.email,
    expiresAt: new Date(now.getTime() + VERIFICATION_DAYS * 86_400_000),
  });
  await tx.outbox.enqueue(
    emailVerification(settings.clinic, { email: user.email, userId: user.id, name: user.name }, linkId, now, purpose),
  );
}
