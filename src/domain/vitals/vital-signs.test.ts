import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { ucumUnits } from '../../ucum-units.ts';
import { news2SetOf, readVitals, temperatureIn, type VitalsInput } from './vital-signs.ts';

const full: VitalsInput = {
  systolic: 128,
  diastolic: 82,
  heart_rate: 76,
  respiratory_rate: 16,
  temperature: 37.2,
  spo2: 97,
  consciousness: 'A',
};

const refusal = (input: VitalsInput) => {
  try {
    readVitals(ucumUnits, input);
  } catch (error) {
    return (error as { kind: string; fields: Record<string, string[]> }).fields;
  }
  assert.fail('not refused');
};

describe('a set of vital signs', () => {
  it('stores each value in its UCUM unit, °F as °C, pounds as kg, inches as cm, and computes BMI', () => {
    const measured = readVitals(ucumUnits, {
      temperature: 98.6,
      temperature_unit: '[degF]',
      weight: 154,
      weight_unit: '[lb_av]',
      height: 70,
      height_unit: '[in_i]',
    });
    assert.deepEqual(measured, [
      { vital: 'temperature', value: 37, unit: 'Cel' },
      { vital: 'weight', value: 69.85, unit: 'kg' },
      { vital: 'height', value: 177.8, unit: 'cm' },
      { vital: 'bmi', value: 22.1, unit: 'kg/m2' },
    ]);
  });

  it('shows a temperature in the clinic unit', () => {
    assert.equal(temperatureIn(ucumUnits, 37, 'Cel'), 37);
    assert.equal(temperatureIn(ucumUnits, 37, '[degF]'), 98.6);
  });

  it('refuses physiologically impossible values with 422 naming the field, after conversion', () => {
    assert.deepEqual(Object.keys(refusal({ heart_rate: 19 })), ['heart_rate']);
    assert.deepEqual(Object.keys(refusal({ heart_rate: 301 })), ['heart_rate']);
    assert.deepEqual(Object.keys(refusal({ temperature: 24.9 })), ['temperature']);
    assert.deepEqual(Object.keys(refusal({ temperature: 45.1 })), ['temperature']);
    assert.deepEqual(Object.keys(refusal({ temperature: 120, temperature_unit: '[degF]' })), ['temperature']);
    assert.deepEqual(Object.keys(refusal({ spo2: 101 })), ['spo2']);
    assert.deepEqual(Object.keys(refusal({ pain_score: 11 })), ['pain_score']);
    assert.deepEqual(Object.keys(refusal({ respiratory_rate: 1 })), ['respiratory_rate']);
  });

  it('refuses a unit that is not UCUM or does not convert, a lone or inverted blood pressure, and an empty set', () => {
    assert.deepEqual(Object.keys(refusal({ temperature: 37, temperature_unit: 'celsius' })), ['temperature_unit']);
    assert.deepEqual(Object.keys(refusal({ weight: 70, weight_unit: 'cm' })), ['weight_unit']);
    assert.deepEqual(Object.keys(refusal({ systolic: 120 })), ['diastolic']);
    assert.deepEqual(Object.keys(refusal({ systolic: 80, diastolic: 90 })), ['diastolic']);
    assert.deepEqual(Object.keys(refusal({})), ['vitals']);
  });

  it('is scored by NEWS2 only when complete, on air unless oxygen is said', () => {
    const complete = news2SetOf(readVitals(ucumUnits, full));
    assert.deepEqual(complete, {
      respiratoryRate: 16,
      spo2: 97,
      onOxygen: false,
      systolic: 128,
      pulse: 76,
      consciousness: 'A',
      temperature: 37.2,
    });
    assert.equal(news2SetOf(readVitals(ucumUnits, { ...full, on_oxygen: true }))?.onOxygen, true);
    assert.equal(news2SetOf(readVitals(ucumUnits, { ...full, consciousness: undefined })), undefined);
    assert.equal(news2SetOf(readVitals(ucumUnits, { ...full, temperature: undefined })), undefined);
  });
});
