// Dates stay yyyy-MM-dd strings and int8 (counts, cents) becomes a number, on both drivers.
export const DATE_OID = 1082;
export const INT8_OID = 20;
export const NUMERIC_OID = 1700;
export const asNumber = (v: string) => Number(v);
export const asText = (v: string) => v;
