/**
 * The clinic's settings as every page of the UI carries them (the same fields GET /api/clinic answers), so the
 * first draw already writes dates in the clinic's locale and zone and no second draw follows (src/web/clinic.ts).
 */
import { clinicOf, type AppConfig } from '../app.ts';
import { escapeHtml } from '../domain/notifications/message.ts';
import type { ClinicJson } from '../domain/shared/shared-shapes.ts';

export const CLINIC_SETTINGS_META = 'medora-clinic';

/** What GET /api/clinic answers: the name, address and phone a letterhead shows, the zone and locale pages format with. */
export function clinicSettings(config: AppConfig): ClinicJson {
  const { name, timeZone, locale } = clinicOf(config);
  return { name, address: config.clinicAddress ?? '', phone: config.clinicPhone ?? '', time_zone: timeZone, locale };
}

export function clinicSettingsTag(config: AppConfig): string {
  return `<meta name="${CLINIC_SETTINGS_META}" content="${escapeHtml(JSON.stringify(clinicSettings(config)))}" />`;
}
