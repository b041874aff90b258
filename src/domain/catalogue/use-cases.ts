import type { Actor } from '../shared/actor.ts';
import { notFound, ensure } from '../shared/errors.ts';
import { pageRequest } from '../shared/pagination.ts';
import { readInput } from '../shared/read-fields.ts';
import { pathId, type RawId } from '../shared/validate.ts';
import { NameAndDescriptionRequest, RoomRequest, SpecializationRequest } from './catalogue-shapes.ts';
import { refuseWhenInUse } from './catalogue.ts';
import type { CatalogueDeps, CatalogueTable, DepartmentFields, RoomFields, SpecializationFields } from './ports.ts';

function nameAndDescription(body: unknown): DepartmentFields {
  const { name, description = '' } = readInput(NameAndDescriptionRequest, body);
  return { name, description };
}

const specializationFields = (body: unknown): SpecializationFields => readInput(SpecializationRequest, body);

function roomFields(body: unknown): RoomFields {
  const { name, department_id } = readInput(RoomRequest, body);
  return { name, departmentId: department_id };
}

async function findOne<T, F>(table: CatalogueTable<T, F>, rawId: RawId, what: string): Promise<T> {
  const row = ensure(await table.find(pathId(rawId, what)), () => notFound(what));
  return row;
}

const audited = (deps: CatalogueDeps, actor: Actor, action: string, entity: string, entityId: number) =>
  deps.audit.record({ actor, action, entity, entityId, requestId: actor.requestId });

/** Which of the catalogue's tables a write goes to, picked from deps bound to the write's transaction. */
type TablePick<T, F> = (deps: CatalogueDeps) => CatalogueTable<T, F>;

async function create<T extends { id: number }, F>(
  deps: CatalogueDeps,
  table: TablePick<T, F>,
  fields: F,
  what: string,
  actor: Actor,
): Promise<T> {
  return deps.transaction(async (tx) => {
    const row = await table(tx).create(fields);
    await audited(tx, actor, 'create', what.toLowerCase(), row.id);
    return row;
  });
}

async function update<T, F>(
  deps: CatalogueDeps,
  table: TablePick<T, F>,
  rawId: RawId,
  fields: F,
  what: string,
  actor: Actor,
): Promise<T> {
  const id = pathId(rawId, what);
  return deps.transaction(async (tx) => {
    const row = await table(tx).update(id, fields);
    if (!row) throw notFound(what);
    await audited(tx, actor, 'update', what.toLowerCase(), id);
    return row;
  });
}

/** Deletes a row nothing uses; otherwise a conflict `in_use` saying what still uses it. */
async function removeUnused<T, F>(
  deps: CatalogueDeps,
  table: TablePick<T, F>,
  rawId: RawId,
  what: string,
  verb: { one: string; many: string },
  actor: Actor,
): Promise<void> {
  const id = pathId(rawId, what);
  await deps.transaction(async (tx) => {
    refuseWhenInUse(await table(tx).usage(id), verb, `this ${what.toLowerCase()}`);
    if (!(await table(tx).remove(id))) throw notFound(what);
    await audited(tx, actor, 'delete', what.toLowerCase(), id);
  });
}

const departments = (d: CatalogueDeps) => d.departments;
const specializations = (d: CatalogueDeps) => d.specializations;
const diseases = (d: CatalogueDeps) => d.diseases;
const rooms = (d: CatalogueDeps) => d.rooms;

const BELONG = { one: 'belongs to', many: 'belong to' };
const USE = { one: 'uses', many: 'use' };

// --- departments

export const listDepartments = (deps: CatalogueDeps, query: Record<string, unknown>) =>
  deps.departments.list(pageRequest(query));
export const getDepartment = (deps: CatalogueDeps, id: RawId) => findOne(deps.departments, id, 'Department');
export const createDepartment = (deps: CatalogueDeps, body: unknown, actor: Actor) =>
  create(deps, departments, nameAndDescription(body), 'Department', actor);
export const updateDepartment = (deps: CatalogueDeps, id: RawId, body: unknown, actor: Actor) =>
  update(deps, departments, id, nameAndDescription(body), 'Department', actor);
/** Refused while doctors, rooms or appointments still belong to the department. */
export const deleteDepartment = (deps: CatalogueDeps, id: RawId, actor: Actor) =>
  removeUnused(deps, departments, id, 'Department', BELONG, actor);

// --- specializations

export const listSpecializations = (deps: CatalogueDeps, query: Record<string, unknown>) =>
  deps.specializations.list(pageRequest(query));
export const createSpecialization = (deps: CatalogueDeps, body: unknown, actor: Actor) =>
  create(deps, specializations, specializationFields(body), 'Specialization', actor);
export const updateSpecialization = (deps: CatalogueDeps, id: RawId, body: unknown, actor: Actor) =>
  update(deps, specializations, id, specializationFields(body), 'Specialization', actor);
/** Refused while a doctor still has the specialization. */
export const deleteSpecialization = (deps: CatalogueDeps, id: RawId, actor: Actor) =>
  removeUnused(deps, specializations, id, 'Specialization', { one: 'has', many: 'have' }, actor);

// --- diseases

export const listDiseases = (deps: CatalogueDeps, query: Record<string, unknown>) =>
  deps.diseases.list(pageRequest(query));
export const createDisease = (deps: CatalogueDeps, body: unknown, actor: Actor) =>
  create(deps, diseases, nameAndDescription(body), 'Disease', actor);
export const updateDisease = (deps: CatalogueDeps, id: RawId, body: unknown, actor: Actor) =>
  update(deps, diseases, id, nameAndDescription(body), 'Disease', actor);
/** Refused while a medical record still names the disease. */
export const deleteDisease = (deps: CatalogueDeps, id: RawId, actor: Actor) =>
  removeUnused(deps, diseases, id, 'Disease', { one: 'names', many: 'name' }, actor);

// --- rooms

export const listRooms = (deps: CatalogueDeps, query: Record<string, unknown>) => deps.rooms.list(pageRequest(query));
export const getRoom = (deps: CatalogueDeps, id: RawId) => findOne(deps.rooms, id, 'Room');
export const createRoom = (deps: CatalogueDeps, body: unknown, actor: Actor) =>
  create(deps, rooms, roomFields(body), 'Room', actor);
export const updateRoom = (deps: CatalogueDeps, id: RawId, body: unknown, actor: Actor) =>
  update(deps, rooms, id, roomFields(body), 'Room', actor);
/** Refused while schedule slots or appointments still use the room. */
export const deleteRoom = (deps: CatalogueDeps, id: RawId, actor: Actor) =>
  removeUnused(deps, rooms, id, 'Room', USE, actor);
