/**
 * The clinic's settings that every page formats with (its locale and zone), asked once at start-up. Pages draw at
 * once in the default locale rather than wait a round trip for them; main.tsx draws again if they differ.
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

export const clinic: ClinicSettings = { locale: DEFAULT_LOCALE, timeZone: undefined };

/** Reads the settings; true when they change what the pages drawn so far show. */
export async function loadClinicSettings(): Promise<boolean> {
  try {
    const answer = await apiGet<SchemaClinic>(endpoints.clinic);
    const changed = answer.locale !== clinic.locale || answer.time_zone !== clinic.timeZone;
    Object.assign(clinic, { locale: answer.locale, timeZone: answer.time_zone });
    return changed;
  } catch (error) {
    console.error('clinic settings fetch failed', error);
    return false;
  }
}
