/** A text as a Code 128 barcode in SVG, black bars on white with the quiet zones the standard asks. */
import { code128Bars } from '../code128.ts';

/** Module width and bar height in the SVG's units; the label prints at the width its CSS gives it. */
const MODULE = 2;
const HEIGHT = 60;

export function Code128Svg({ text }: { text: string }) {
  const { bars, width } = code128Bars(text);
  return (
    <svg
      className="barcode"
      viewBox={`0 0 ${width * MODULE} ${HEIGHT}`}
      width={width * MODULE}
      height={HEIGHT}
      role="img"
      aria-label={`Barcode ${text}`}
      shapeRendering="crispEdges"
    >
      <rect x="0" y="0" width={width * MODULE} height={HEIGHT} fill="#fff" />
      {bars.map((bar) => (
        <rect key={bar.x} x={bar.x * MODULE} y="0" width={bar.width * MODULE} height={HEIGHT} fill="#000" />
      ))}
    </svg>
  );
}
