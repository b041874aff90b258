/** The admin's formulary: the medicines doctors prescribe from, a new one added, one withdrawn or listed again. */
import { useState } from 'react';
import type { DoseForm, Route } from '../../../domain/medicines/formulary.ts';
import type { FormularyEntryJson } from '../../../domain/medicines/medicines-shapes.ts';
import { apiPost, apiPut, fetchList, type ListQuery } from '../../api.ts';
import { Alert, failure, success } from '../../components/alert.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Field } from '../../components/field.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useCreateForm } from '../../components/use-create-form.ts';
import { endpoints } from '../../paths.ts';

// Every dose form and route the formulary takes, checked against the domain's types so neither list can drift.
const DOSE_FORM_NAMES: Record<DoseForm, true> = {
  tablet: true,
  capsule: true,
  syrup: true,
  suspension: true,
  solution: true,
  injection: true,
  infusion: true,
  cream: true,
  ointment: true,
  gel: true,
  drops: true,
  inhaler: true,
  suppository: true,
  patch: true,
  powder: true,
};
const DOSE_FORMS = Object.keys(DOSE_FORM_NAMES) as DoseForm[];
const ROUTE_SET: Record<Route, true> = {
  oral: true,
  iv: true,
  im: true,
  sc: true,
  topical: true,
  inhaled: true,
  rectal: true,
  sublingual: true,
  ophthalmic: true,
  otic: true,
  nasal: true,
  transdermal: true,
  vaginal: true,
};
const ROUTE_NAMES = Object.keys(ROUTE_SET) as Route[];

// Admins see the medicines withdrawn too, to list them again.
const loadFormulary = (query: ListQuery, signal?: AbortSignal) =>
  fetchList<FormularyEntryJson>(
    endpoints.medicines.formulary,
    'medicines',
    { ...query, include_inactive: 'true' },
    signal,
  );
const EMPTY = { generic_name: '', form: 'tablet', strength: '', routes: 'oral', dose_unit: 'mg', price: '' };

export default function FormularyPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [values, setValues] = useState(EMPTY);
  const set = (key: keyof typeof EMPTY, value: string) => setValues((was) => ({ ...was, [key]: value }));

  const { errors, busy, create } = useCreateForm({
    noun: 'medicine',
    createdText: 'Medicine added to the formulary',
    send: () =>
      apiPost(endpoints.medicines.adminFormulary, {
        ...values,
        routes: values.routes.split(/[\s,;]+/).filter(Boolean),
        price: values.price || undefined,
      }),
    setAlert,
    onCreated: () => {
      setValues(EMPTY);
      setReloadKey((key) => key + 1);
    },
  });

  const toggle = async (m: FormularyEntryJson) => {
    try {
      await apiPut(endpoints.medicines.formularyEntry(m.id), {
        generic_name: m.generic_name,
        form: m.form,
        strength: m.strength,
        routes: m.routes,
        dose_unit: m.dose_unit,
        ...(m.price !== null ? { price: m.price } : {}),
        active: !m.active,
      });
      setAlert(success(m.active ? `${m.label} withdrawn` : `${m.label} listed again`));
      setReloadKey((key) => key + 1);
    } catch (error) {
      console.error('Formulary change failed', error);
      setAlert(failure(`Failed to change ${m.label}`));
    }
  };

  const columns: Column<FormularyEntryJson>[] = [
    { header: 'Medicine', text: (m) => m.label },
    { header: 'Routes', text: (m) => m.routes.join(', '), priority: 2 },
    { header: 'Dose unit', text: (m) => m.dose_unit, priority: 2 },
    { header: 'Price', text: (m) => (m.price === null ? '—' : `$${m.price}`), priority: 2 },
    { header: 'Listed', text: (m) => (m.active ? 'Yes' : 'No') },
  ];

  return (
    <>
      <PageHeader title="Formulary" />
      <Alert message={alert} onDismiss={dismiss} />
      <form className="form card form-narrow" onSubmit={create} aria-label="New medicine">
        <Field label="Generic name" errors={errors.generic_name}>
          {(control) => (
            <input
              {...control}
              required
              value={values.generic_name}
              onChange={(e) => set('generic_name', e.target.value)}
            />
          )}
        </Field>
        <Field label="Form" errors={errors.form}>
          {(control) => (
            <select {...control} value={values.form} onChange={(e) => set('form', e.target.value)}>
              {DOSE_FORMS.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Strength" errors={errors.strength} hint='As the pack says it: "500 mg", "125 mg/5 mL"'>
          {(control) => (
            <input {...control} required value={values.strength} onChange={(e) => set('strength', e.target.value)} />
          )}
        </Field>
        <Field label="Routes" errors={errors.routes} hint={`Separated by commas: ${ROUTE_NAMES.join(', ')}`}>
          {(control) => (
            <input {...control} required value={values.routes} onChange={(e) => set('routes', e.target.value)} />
          )}
        </Field>
        <Field label="Dose unit" errors={errors.dose_unit} hint="UCUM: mg, mL, [iU], {puff}">
          {(control) => (
            <input {...control} required value={values.dose_unit} onChange={(e) => set('dose_unit', e.target.value)} />
          )}
        </Field>
        <Field label="Price per dose" errors={errors.price}>
          {(control) => (
            <input
              {...control}
              inputMode="decimal"
              value={values.price}
              onChange={(e) => set('price', e.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="button button-primary" disabled={busy}>
          Add medicine
        </button>
      </form>
      <DataTable
        label="Formulary"
        columns={columns}
        load={loadFormulary}
        rowKey={(m) => m.id}
        emptyText="No medicines found."
        reloadKey={reloadKey}
        searchable
        actions={(m) => [
          {
            label: m.active ? 'Withdraw' : 'List again',
            name: `${m.active ? 'Withdraw' : 'List again'} ${m.label}`,
            onSelect: () => void toggle(m),
          },
        ]}
      />
    </>
  );
}
