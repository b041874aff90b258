import type { Invoice, InvoiceLineItemPriceComponent, Money } from '@medplum/fhirtypes';
import { clinicRef, meta, ref, type Named, type Versioned } from './fhir.ts';
import { ID_PARAM, LAST_UPDATED_PARAM, numericId, storedCode, type ResourceDef } from './resource-def.ts';

/** A bill, `paid` once its payments settle it in full. */
export interface BillRow extends Versioned {
  patient: Named;
  serviceDetails: string;
  amountCents: number;
  /** Its credit notes together, shown as a discount. */
  creditedCents: number;
  date: string;
  paid: boolean;
}

/** Medora bills in US dollars (domain/shared/money.ts). */
const money = (cents: number): Money => ({ value: cents / 100, currency: 'USD' });

/** The service at its amount, less its credit notes as one discount (FHIR discounts are given as positive amounts). */
const priceOf = (row: BillRow): InvoiceLineItemPriceComponent[] => [
  { type: 'base', amount: money(row.amountCents) },
  ...(row.creditedCents > 0 ? [{ type: 'discount' as const, amount: money(row.creditedCents) }] : []),
];

export const invoiceResource: ResourceDef<BillRow, Invoice> = {
  type: 'Invoice',
  params: [
    ID_PARAM,
    LAST_UPDATED_PARAM,
    { name: 'patient', type: 'reference', target: 'Patient', documentation: 'The patient billed' },
    { name: 'subject', type: 'reference', target: 'Patient', documentation: 'The patient billed' },
    { name: 'date', type: 'date', documentation: 'The billing date' },
    {
      name: 'status',
      type: 'token',
      documentation: 'issued (unpaid or partly paid) | balanced (paid)',
      stored: storedCode({ issued: ['unpaid', 'partly_paid'], balanced: ['paid'] }),
    },
  ],
  sortDate: 'date',
  isId: numericId,
  patientOf: (row) => row.patient.id,
  toFhir: (row, ctx) => ({
    resourceType: 'Invoice',
    id: String(row.id),
    meta: meta(row),
    status: row.paid ? 'balanced' : 'issued',
    subject: ref('Patient', row.patient.id, row.patient.name),
    recipient: ref('Patient', row.patient.id, row.patient.name),
    date: row.date,
    issuer: clinicRef(ctx),
    lineItem: [{ sequence: 1, chargeItemCodeableConcept: { text: row.serviceDetails }, priceComponent: priceOf(row) }],
    totalNet: money(row.amountCents - row.creditedCents),
    totalGross: money(row.amountCents - row.creditedCents),
  }),
};
