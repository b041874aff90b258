/**
 * A bill's receipt (paid) or invoice (unpaid) as the server words it (GET /api/billings/{id}/receipt), headed by
 * the clinic's name, address and phone, and laid out for printing on A4 or Letter.
 */
import { Fragment } from 'react';
import type { ReceiptJson } from '../../domain/billing/billing-shapes.ts';
import { capitalize, formatDate, usd } from '../format.ts';
import { PrintHead } from './printout.tsx';

export const receiptKind = (receipt: ReceiptJson) => (receipt.payment_status === 'paid' ? 'Receipt' : 'Invoice');

export function ReceiptView({ receipt }: { receipt: ReceiptJson }) {
  const { patient } = receipt;
  return (
    <div className="printout receipt">
      <PrintHead
        title={receiptKind(receipt)}
        reference={receipt.bill_number}
        clinic={receipt.clinic}
        patient={{ id: patient.id, name: patient.name, birthDate: patient.birth_date }}
        dated={{ label: 'Billing date', value: formatDate(receipt.billing_date) }}
      />
      <dl className="details">
        <dt>Doctor</dt>
        <dd>{receipt.doctor_name ?? 'N/A'}</dd>
        <dt>Visit date</dt>
        <dd>{receipt.visit_date ? formatDate(receipt.visit_date) : 'N/A'}</dd>
        {receipt.supplements_bill_number && (
          <>
            <dt>Supplements</dt>
            <dd>{receipt.supplements_bill_number}</dd>
          </>
        )}
        <dt>Status</dt>
        <dd>{capitalize(receipt.payment_status.replace('_', ' '))}</dd>
        {receipt.payments.map((payment, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a receipt's payments have no id and never reorder
          <Fragment key={index}>
            <dt>Paid on</dt>
            <dd>
              {formatDate(payment.date)} ({payment.method.replace('_', ' ')}): {usd(payment.amount_cents)},{' '}
              {payment.taken_by ? `taken by ${payment.taken_by}` : 'paid online'}
            </dd>
          </Fragment>
        ))}
      </dl>
      <table className="receipt-items">
        <caption>Items</caption>
        <thead>
          <tr>
            <th scope="col">Description</th>
            <th scope="col" className="amount">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {receipt.items.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a receipt's items have no id and never reorder
            <tr key={index}>
              <td>{item.description}</td>
              <td className="amount">{usd(item.amount_cents)}</td>
            </tr>
          ))}
          {receipt.credit_notes.map((note, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a receipt's credit notes have no id and never reorder
            <tr key={`credit-${index}`} className="receipt-credit">
              <td>
                Credit note, {formatDate(note.date)}: {note.reason}
              </td>
              <td className="amount">−{usd(note.amount_cents)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td className="amount">{usd(receipt.total_cents)}</td>
          </tr>
          <tr>
            <th scope="row">Amount paid</th>
            <td className="amount">{usd(receipt.amount_paid_cents)}</td>
          </tr>
          <tr>
            <th scope="row">Balance due</th>
            <td className="amount">{usd(receipt.balance_cents)}</td>
          </tr>
          {receipt.refund_due_cents > 0 && (
            <tr>
              <th scope="row">Refund due to the patient</th>
              <td className="amount">{usd(receipt.refund_due_cents)}</td>
            </tr>
          )}
        </tfoot>
      </table>
    </div>
  );
}
