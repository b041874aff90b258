/**
 * Code 128 (ISO/IEC 15417), code set B: a specimen id as the module widths of its bars and spaces. Set B covers
 * printable ASCII, which is all a specimen id holds; a label scanner reads it whatever set wrote it.
 */

/** Each symbol value's widths, bar first, in modules (six elements of eleven; the stop, 106, seven of thirteen). */
// biome-ignore format: the standard's table, eight to a line
export const PATTERNS: readonly string[] = [
  '212222', '222122', '222221', '121223', '121322', '131222', '122213', '122312',
  '132212', '221213', '221312', '231212', '112232', '122132', '122231', '113222',
  '123122', '123221', '223211', '221132', '221231', '213212', '223112', '312131',
  '311222', '321122', '321221', '312212', '322112', '322211', '212123', '212321',
  '232121', '111323', '131123', '131321', '112313', '132113', '132311', '211313',
  '231113', '231311', '112133', '112331', '132131', '113123', '113321', '133121',
  '313121', '211331', '231131', '213113', '213311', '213131', '311123', '311321',
  '331121', '312113', '312311', '332111', '314111', '221411', '431111', '111224',
  '111422', '121124', '121421', '141122', '141221', '112214', '112412', '122114',
  '122411', '142112', '142211', '241211', '221114', '413111', '241112', '134111',
  '111242', '121142', '121241', '114212', '124112', '124211', '411212', '421112',
  '421211', '212141', '214121', '412121', '111143', '111341', '131141', '114113',
  '114311', '411113', '411311', '113141', '114131', '311141', '411131', '211412',
  '211214', '211232', '2331112',
];

export const START_B = 104;
export const STOP = 106;
/** The blank the standard asks on each side, in modules. */
export const QUIET_ZONE = 10;

/** The symbol values: start B, one per character, the check symbol (mod 103 weighted sum), stop. */
export function code128Values(text: string): number[] {
  if (text.length === 0) throw new Error('Code 128 needs at least one character');
  const data = [...text].map((char) => {
    const code = char.charCodeAt(0);
    if (char.length !== 1 || code < 32 || code > 126)
      throw new Error(`Code 128 set B cannot hold ${JSON.stringify(char)}`);
    return code - 32;
  });
  const check = data.reduce((sum, value, index) => sum + value * (index + 1), START_B) % 103;
  return [START_B, ...data, check, STOP];
}

export interface Bar {
  /** From the left edge, quiet zone included, in modules. */
  x: number;
  width: number;
}

/** The bars to draw for `text` and the whole symbol's width with both quiet zones, in modules. */
export function code128Bars(text: string): { bars: Bar[]; width: number } {
  const bars: Bar[] = [];
  let x = QUIET_ZONE;
  for (const value of code128Values(text)) {
    const widths = [...(PATTERNS[value] ?? '')].map(Number);
    widths.forEach((width, index) => {
      if (index % 2 === 0) bars.push({ x, width });
      x += width;
    });
  }
  return { bars, width: x + QUIET_ZONE };
}
