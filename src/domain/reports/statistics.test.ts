import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { statisticsOf, topDoctorJson, zeroFilledDays } from './statistics.ts';

describe('statisticsOf', () => {
  it('averages doctor–disease pairs over active doctors to two decimals', () => {
    const stats = statisticsOf({ appointments: 13, patients: 3, activeDoctors: 3, doctorDiseasePairs: 4 });
    assert.deepEqual(stats, {
      appointment_count: 13,
      patient_count: 3,
      doctor_count: 3,
      average_diseases_per_doctor: 1.33,
    });
    assert.equal(
      statisticsOf({ appointments: 0, patients: 0, activeDoctors: 3, doctorDiseasePairs: 5 })
        .average_diseases_per_doctor,
      1.67,
    );
  });

  it('answers 0 diseases per doctor when there are no doctors', () => {
    assert.equal(
      statisticsOf({ appointments: 2, patients: 1, activeDoctors: 0, doctorDiseasePairs: 0 })
        .average_diseases_per_doctor,
      0,
    );
  });
});

describe('topDoctorJson', () => {
  it('gives the dashboard card its fields, the image as a file URL', () => {
    const json = topDoctorJson({
      id: 7,
      name: 'Dr. Ben',
      specialization: null,
      imageId: 12,
      completedAppointments: 3,
      patients: 2,
    });
    assert.deepEqual(json, {
      top_doctor: {
        id: 7,
        name: 'Dr. Ben',
        specialization: null,
        patient_img: '/api/files/12',
        completed_appointments_count: 3,
        patient_count: 2,
      },
    });
  });

  it('answers null when no doctor has completed an appointment', () => {
    assert.deepEqual(topDoctorJson(undefined), { top_doctor: null });
  });
});

describe('zeroFilledDays', () => {
  it('gives every date of the range, across a month end, with 0 where nothing was booked', () => {
    const days = zeroFilledDays('2026-05-30', 4, [
      { date: '2026-05-31', count: 2 },
      { date: '2026-06-02', count: 5 },
    ]);
    assert.deepEqual(days, [
      { date: '2026-05-30', count: 0 },
      { date: '2026-05-31', count: 2 },
      { date: '2026-06-01', count: 0 },
      { date: '2026-06-02', count: 5 },
    ]);
  });
});
