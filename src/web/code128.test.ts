import assert from 'node:assert/strict';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, it } from '../testing/node-test.ts';
import { PATTERNS, START_B, STOP, code128Values } from './code128.ts';
import { Code128Svg } from './components/code128-svg.tsx';

/** Reads a drawn Code 128 symbol back: the black rects' edges → module widths → symbols → checked text. */
function decodeSvg(svg: string): string {
  const rects = [...svg.matchAll(/<rect x="([\d.]+)" y="0" width="([\d.]+)" height="[\d.]+" fill="#000"/g)].map(
    (m) => ({ x: Number(m[1]), width: Number(m[2]) }),
  );
  const narrowest = Math.min(...rects.map((r) => r.width));
  const widths: number[] = [];
  rects.forEach((rect, index) => {
    const previous = rects[index - 1];
    if (previous) widths.push((rect.x - previous.x - previous.width) / narrowest);
    widths.push(rect.width / narrowest);
  });
  const symbols: number[] = [];
  for (let at = 0; at < widths.length; at += 6) {
    const chunk = widths.slice(at, at + 6).join('');
    const stop = widths.slice(at, at + 7).join('');
    const value = PATTERNS.indexOf(chunk);
    if (PATTERNS[STOP] === stop && at + 7 === widths.length) {
      symbols.push(STOP);
      break;
    }
    assert.notEqual(value, -1, `no symbol has the widths ${chunk}`);
    symbols.push(value);
  }
  assert.equal(symbols[0], START_B, 'starts in code set B');
  assert.equal(symbols.at(-1), STOP, 'ends with the stop symbol');
  const data = symbols.slice(1, -2);
  const check = data.reduce((sum, v, i) => sum + v * (i + 1), START_B) % 103;
  assert.equal(symbols.at(-2), check, 'the check symbol matches');
  return String.fromCharCode(...data.map((v) => v + 32));
}

describe('Code 128 specimen barcodes', () => {
  it('draws an SVG whose bars decode back to the specimen id', () => {
    for (const text of ['L20300603-000001-1', 'S-0042', 'a b~!', '0']) {
      const svg = renderToStaticMarkup(createElement(Code128Svg, { text }));
      assert.equal(decodeSvg(svg), text);
    }
  });

  it('computes the check symbol as the standard does (weighted sum mod 103)', () => {
    // 104 + 48·1 + 42·2 + 42·3 + 17·4 + 18·5 + 19·6 + 35·7 = 879, and 879 mod 103 = 55.
    assert.deepEqual(code128Values('PJJ123C'), [START_B, 48, 42, 42, 17, 18, 19, 35, 55, STOP]);
  });

  it('refuses a character set B cannot hold', () => {
    assert.throws(() => code128Values('é'), /cannot hold/);
    assert.throws(() => code128Values(''), /at least one/);
  });
});
