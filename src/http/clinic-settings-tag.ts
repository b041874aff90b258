/**
 * The clinic's settings as every page of the UI carries them (the fields of GET /api/clinic that formatting needs), so the
 * first draw already writes dates in the clinic's locale and zone and no second draw follows (src/web/clinic.ts).
 */
import { escapeHtml, type Clinic } from '../domain/notifications/message.ts';

export const CLINIC_SETTINGS_META = 'medora-clinic';

export function clinicSettingsTag({ name, timeZone, locale }: Clinic): string {
  const settings = JSON.stringify({ name, time_zone: timeZone, locale });
  return `<meta name="${CLINIC_SETTINGS_META}" content="${escapeHtml(settings)}" />`;
}
