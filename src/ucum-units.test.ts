import assert from 'node:assert/strict';
import { describe, it } from './testing/node-test.ts';
import { quantityInTestUnit } from './domain/lab/units.ts';
import { ucumUnits } from './ucum-units.ts';

describe('UCUM units by @lhncbc/ucum-lhc', () => {
  it('knows UCUM codes and refuses what is not one', () => {
    assert.equal(ucumUnits.isValid('mg/dL'), true);
    assert.equal(ucumUnits.isValid('10*9/L'), true);
    assert.equal(ucumUnits.isValid('MG/DL'), false);
    assert.equal(ucumUnits.isValid('furlong-ish'), false);
  });
  it('converts commensurable units and refuses others', () => {
    assert.equal(ucumUnits.convert(140, 'g/L', 'g/dL'), 14);
    assert.equal(ucumUnits.convert(1, 'kg', 'm'), undefined);
  });
  it('converts a temperature on its offset scale', () => {
    assert.equal(Math.round((ucumUnits.convert(98.6, '[degF]', 'Cel') ?? 0) * 10) / 10, 37);
  });
  it('stores a creatinine in µmol/L given in mmol/L, and refuses mg/dL without a molar mass', () => {
    const creatinine = { name: 'Creatinine', unit: 'umol/L', physicalLow: 0, physicalHigh: 5000 };
    assert.deepEqual(quantityInTestUnit(ucumUnits, creatinine, 0.09, 'mmol/L'), { value: 90, unit: 'umol/L' });
    assert.throws(() => quantityInTestUnit(ucumUnits, creatinine, 1, 'mg/dL'), /cannot be converted/);
  });
});
