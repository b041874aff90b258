import { invalid } from '../shared/errors.ts';
import type { Params } from './reading.ts';

const VALUE_KEYS = ['valueString', 'valueCode', 'valueDate', 'valueDateTime', 'valueInstant', 'valueUri'] as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An operation's parameters from a POST body (FHIR R4 §3.1.0.1.4): a Parameters resource of simple values
 * (valueString, valueCode, valueDate, valueDateTime, valueInstant, valueUri, valueInteger), a form's fields, or none.
 */
export function operationParams(body: unknown): Params {
  if (!isRecord(body) || Object.keys(body).length === 0) return [];
  if (body.resourceType === undefined)
    return Object.entries(body).map(([name, value]) => {
      if (typeof value !== 'string') throw invalid({ [name]: ['must be a single value'] });
      return [name, value] as const;
    });
  if (body.resourceType !== 'Parameters') throw invalid({ resourceType: ['must be Parameters'] });
  const parameters = body.parameter ?? [];
  if (!Array.isArray(parameters)) throw invalid({ parameter: ['must be a list'] });
  return parameters.map((p: unknown, i) => {
    if (!isRecord(p) || typeof p.name !== 'string') throw invalid({ [`parameter[${i}].name`]: ['is required'] });
    const key = VALUE_KEYS.find((k) => typeof p[k] === 'string');
    if (key !== undefined) return [p.name, String(p[key])] as const;
    if (Number.isInteger(p.valueInteger)) return [p.name, String(p.valueInteger)] as const;
    throw invalid({ [`parameter[${i}].value[x]`]: [`${p.name} takes a simple value (valueString, valueDate …)`] });
  });
}
