/** A specimen's label: its id as a Code 128 barcode (SVG) and in print, with whose specimen it is and what for. */
import { Code128Svg } from './code128-svg.tsx';
import { formatDate } from '../format.ts';

export interface LabelFacts {
  specimenCode: string;
  patient: { name: string; birth_date: string | null };
  test: string;
  specimenType: string;
  orderNumber: string;
}

export function SpecimenLabel({ facts }: { facts: LabelFacts }) {
  return (
    <figure className="specimen-label">
      <Code128Svg text={facts.specimenCode} />
      <figcaption>
        <strong className="specimen-code">{facts.specimenCode}</strong>
        <span>
          {facts.patient.name}
          {facts.patient.birth_date ? `, born ${formatDate(facts.patient.birth_date)}` : ''}
        </span>
        <span>
          {facts.test} · {facts.specimenType} · {facts.orderNumber}
        </span>
      </figcaption>
    </figure>
  );
}
