/** A medical record's clinical content, as the doctor writes it at the visit and as an amendment rewrites it. */
import { useEffect, useState } from 'react';
import type { Disease } from '../../domain/catalogue/catalogue.ts';
import type { FieldErrors } from '../../domain/shared/errors.ts';
import { fetchList } from '../api.ts';
import { endpoints } from '../paths.ts';
import { Field } from './field.tsx';
import { NamedSelect } from './named-select.tsx';
import { ALL } from './use-alert.ts';

export interface ClinicalValues {
  disease_id: string;
  diagnosis: string;
  lab_tests: string;
  prescriptions: string;
}

interface ClinicalFieldsProps {
  values: ClinicalValues;
  errors: FieldErrors;
  set: (key: keyof ClinicalValues, value: string) => void;
}

/** Disease (from the catalogue), diagnosis, lab tests and prescriptions, validated by the server by the same rules for both. */
export function ClinicalFields({ values, errors, set }: ClinicalFieldsProps) {
  const [diseases, setDiseases] = useState<Disease[]>([]);

  useEffect(() => {
    fetchList<Disease>(endpoints.diseases, 'diseases', ALL)
      .then((list) => setDiseases(list.rows))
      .catch((error: unknown) => console.error('diseases fetch failed', error));
  }, []);

  return (
    <>
      <Field label="Disease" errors={errors.disease_id}>
        {(control) => (
          <NamedSelect
            control={control}
            required
            placeholder="Select disease"
            options={diseases}
            value={values.disease_id}
            onChange={(id) => set('disease_id', id)}
          />
        )}
      </Field>
      <Field label="Diagnosis" errors={errors.diagnosis}>
        {(control) => (
          <textarea
            {...control}
            required
            rows={3}
            value={values.diagnosis}
            onChange={(e) => set('diagnosis', e.target.value)}
          />
        )}
      </Field>
      <Field label="Lab tests" errors={errors.lab_tests}>
        {(control) => (
          <input {...control} value={values.lab_tests} onChange={(e) => set('lab_tests', e.target.value)} />
        )}
      </Field>
      <Field label="Prescriptions" errors={errors.prescriptions}>
        {(control) => (
          <input {...control} value={values.prescriptions} onChange={(e) => set('prescriptions', e.target.value)} />
        )}
      </Field>
    </>
  );
}
