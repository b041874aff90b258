import type { PaymentStatus } from '../billing/billing.ts';
import { recordHistoryJson, type Named, type RecordVersion } from '../records/records.ts';
import { centsToDecimal } from '../shared/money.ts';
import type { PatientVisitJson } from './patients-shapes.ts';

/** One recorded visit as its patient reads it: when and with whom, what was found and done, and its bill. */
export interface PatientVisit {
  recordId: number;
  visitDate: string;
  startTime: string;
  doctor: Named;
  disease: Named | null;
  diagnosis: string;
  prescriptions: string;
  labTests: string;
  serviceType: string;
  bill: { id: number; amountCents: number; status: PaymentStatus } | null;
  /** Every version of the record, the current one last. */
  history: RecordVersion[];
}

export function patientVisitJson(v: PatientVisit): PatientVisitJson {
  return {
    id: v.recordId,
    date: v.visitDate,
    start_time: v.startTime,
    doctor: v.doctor,
    disease: v.disease,
    diagnosis: v.diagnosis,
    prescriptions: v.prescriptions,
    lab_tests: v.labTests,
    service_type: v.serviceType,
    ...recordHistoryJson(v.history),
    bill: v.bill && {
      id: v.bill.id,
      amount: centsToDecimal(v.bill.amountCents),
      amount_cents: v.bill.amountCents,
      payment_status: v.bill.status,
    },
  };
}
