/**
 * The clinic's settings that every page formats with (its locale and zone). The server writes them into each page
 * (src/http/clinic-settings-tag.ts), so the first draw already uses them; a page without them (a UI served by
 * other means) draws at once in the default locale, asks GET /api/clinic, and main.tsx draws again if they differ.
 */
import { DEFAULT_LOCALE } from '../domain/shared/date-format.ts';
import type { SchemaClinic } from './api-wire.gen.ts';
import { apiGet } from './api.ts';
import { endpoints } from './paths.ts';

export interface ClinicSettings {
  locale: string;
  /** Undefined until known: instants then read in the browser's own zone. */
  timeZone: string | undefined;
}

const settingsOf = (answer: SchemaClinic): ClinicSettings => ({ locale: answer.locale, timeZone: answer.time_zone });

const isClinic = (value: unknown): value is SchemaClinic =>
  typeof value === 'object' &&
  value !== null &&
  'locale' in value &&
  typeof value.locale === 'string' &&
  'time_zone' in value &&
  typeof value.time_zone === 'string';

/** The settings the page carries, if it does. */
function fromPage(): ClinicSettings | undefined {
  const content = document.querySelector<HTMLMetaElement>('meta[name="medora-clinic"]')?.content;
  if (!content) return undefined;
  try {
    const carried: unknown = JSON.parse(content);
    if (isClinic(carried)) return settingsOf(carried);
  } catch (error) {
    console.error('the page carries unreadable clinic settings', error);
  }
  return undefined;
}

const carried = fromPage();
export const clinic: ClinicSettings = carried ?? { locale: DEFAULT_LOCALE, timeZone: undefined };
export const clinicSettingsKnown = carried !== undefined;

/** Reads the settings; true when they change what the pages drawn so far show. */
export async function loadClinicSettings(): Promise<boolean> {
  try {
    const answer = settingsOf(await apiGet<SchemaClinic>(endpoints.clinic));
    const changed = answer.locale !== clinic.locale || answer.timeZone !== clinic.timeZone;
    Object.assign(clinic, answer);
    return changed;
  } catch (error) {
    console.error('clinic settings fetch failed', error);
    return false;
  }
}
