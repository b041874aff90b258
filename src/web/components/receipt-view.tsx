/** A bill's receipt as the server words it (GET /api/billings/{id}/receipt), laid out for printing. */
import type { ReceiptJson } from '../../domain/billing/billing.ts';
import { capitalize, usd } from '../format.ts';

export function ReceiptView({ receipt }: { receipt: ReceiptJson }) {
  return (
    <div className="receipt">
      <p className="receipt-clinic">{receipt.clinic_name}</p>
      <dl className="details">
        <dt>Bill number</dt>
        <dd>{receipt.bill_number}</dd>
        <dt>Patient</dt>
        <dd>
          {receipt.patient.name} ({receipt.patient.email})
        </dd>
        <dt>Billing date</dt>
        <dd>{receipt.billing_date}</dd>
        <dt>Status</dt>
        <dd>{capitalize(receipt.payment_status)}</dd>
        {receipt.payment_date && (
          <>
            <dt>Paid on</dt>
            <dd>
              {receipt.payment_date}
              {receipt.payment_method && ` (${receipt.payment_method})`}
            </dd>
          </>
        )}
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
            <tr key={index}>
              <td>{item.description}</td>
              <td className="amount">{usd(item.amount_cents)}</td>
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
        </tfoot>
      </table>
    </div>
  );
}
