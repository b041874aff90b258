import type { Command } from 'commander';
import type { App } from '../app.ts';
import { cliActor, type Actor } from '../domain/shared/actor.ts';
import { MAX_PER_PAGE, type Page } from '../domain/shared/pagination.ts';
import { chosenFormat, formatOption, printRecord, printRows, type Column, type Row } from './format.ts';
import { writeLine, type Cli } from './context.ts';
import { readPassword } from './output.ts';
import type { StaffJson } from '../domain/auth/auth-shapes.ts';
import type { Department, Disease, Doctor, Room, Specialization } from '../domain/catalogue/catalogue-shapes.ts';

/** An option of `add`: `--department-id <id>` fills the API field `department_id`, so messages name the same field. */
interface Field {
  key: string;
  arg: string;
  description: string;
  required?: boolean;
}

interface CatalogueGroup<T> {
  name: string;
  singular: string;
  columns: Column[];
  row(item: T): Row;
  list(app: App, query: Record<string, unknown>): Promise<Page<T>>;
  fields: Field[];
  /** `add` reads an initial password from stdin. */
  passwordFromStdin?: boolean;
  add(app: App, body: Record<string, unknown>, actor: Actor, password: string | undefined): Promise<T>;
  /** What `remove` does, when it is not refused while anything still uses the item. */
  removes?: string;
  remove(app: App, id: string, actor: Actor): Promise<string>;
}

const ID: Column = { key: 'id', header: 'ID' };
const NAME: Column = { key: 'name', header: 'Name' };
const DESCRIPTION: Column = { key: 'description', header: 'Description' };
const nameField: Field = { key: 'name', arg: '<name>', description: 'name, unique case-insensitively', required: true };
const descriptionField: Field = { key: 'description', arg: '<text>', description: 'description' };

const departments: CatalogueGroup<Department> = {
  name: 'departments',
  singular: 'department',
  columns: [ID, NAME, DESCRIPTION],
  row: (d) => ({ id: d.id, name: d.name, description: d.description }),
  list: (app, query) => app.catalogue.listDepartments(query),
  fields: [nameField, descriptionField],
  add: (app, body, actor) => app.catalogue.createDepartment(body, actor),
  remove: async (app, id, actor) => {
    await app.catalogue.deleteDepartment(id, actor);
    return `Removed department ${id}.`;
  },
};

const specializations: CatalogueGroup<Specialization> = {
  name: 'specializations',
  singular: 'specialization',
  columns: [ID, NAME],
  row: (s) => ({ id: s.id, name: s.name }),
  list: (app, query) => app.catalogue.listSpecializations(query),
  fields: [nameField],
  add: (app, body, actor) => app.catalogue.createSpecialization(body, actor),
  remove: async (app, id, actor) => {
    await app.catalogue.deleteSpecialization(id, actor);
    return `Removed specialization ${id}.`;
  },
};

const diseases: CatalogueGroup<Disease> = {
  name: 'diseases',
  singular: 'disease',
  columns: [ID, NAME, DESCRIPTION],
  row: (d) => ({ id: d.id, name: d.name, description: d.description }),
  list: (app, query) => app.catalogue.listDiseases(query),
  fields: [nameField, descriptionField],
  add: (app, body, actor) => app.catalogue.createDisease(body, actor),
  remove: async (app, id, actor) => {
    await app.catalogue.deleteDisease(id, actor);
    return `Removed disease ${id}.`;
  },
};

const rooms: CatalogueGroup<Room> = {
  name: 'rooms',
  singular: 'room',
  columns: [ID, NAME, { key: 'department', header: 'Department' }],
  row: (r) => ({ id: r.id, name: r.name, department: r.department.name }),
  list: (app, query) => app.catalogue.listRooms(query),
  fields: [
    { key: 'name', arg: '<name>', description: 'name, unique within its department', required: true },
    {
      key: 'department_id',
      arg: '<id>',
      description: 'the department it belongs to (see `medora departments list`)',
      required: true,
    },
  ],
  add: (app, body, actor) => app.catalogue.createRoom(body, actor),
  remove: async (app, id, actor) => {
    await app.catalogue.deleteRoom(id, actor);
    return `Removed room ${id}.`;
  },
};

const doctors: CatalogueGroup<Doctor> = {
  name: 'doctors',
  singular: 'doctor',
  columns: [
    ID,
    NAME,
    { key: 'email', header: 'Email' },
    { key: 'phone', header: 'Phone' },
    { key: 'specialization', header: 'Specialization' },
    { key: 'department', header: 'Department' },
  ],
  row: (d) => ({
    id: d.id,
    name: d.name,
    email: d.email,
    phone: d.phone,
    specialization: d.specialization?.name ?? null,
    department: d.department?.name ?? null,
  }),
  list: (app, query) => app.doctors.listDoctors(query),
  fields: [
    { key: 'name', arg: '<name>', description: 'full name', required: true },
    { key: 'email', arg: '<email>', description: 'e-mail address to sign in with', required: true },
    { key: 'phone', arg: '<phone>', description: 'phone number' },
    { key: 'gender', arg: '<gender>', description: 'male, female or other' },
    { key: 'specialization_id', arg: '<id>', description: 'specialization (see `medora specializations list`)' },
    { key: 'department_id', arg: '<id>', description: 'department (see `medora departments list`)' },
    { key: 'birthdate', arg: '<date>', description: 'date of birth, yyyy-MM-dd' },
    { key: 'address', arg: '<address>', description: 'address' },
    { key: 'bio', arg: '<text>', description: 'short biography' },
  ],
  passwordFromStdin: true,
  add: (app, body, actor, password) => app.doctors.createDoctor({ ...body, password }, actor),
  remove: async (app, id, actor) => {
    const { result } = await app.doctors.deleteDoctor(id, actor);
    return result === 'removed'
      ? `Removed doctor ${id}.`
      : `Deactivated doctor ${id}: their appointments and records are kept, and they can no longer sign in.`;
  },
};

const receptionists: CatalogueGroup<StaffJson> = {
  name: 'receptionists',
  singular: 'receptionist',
  columns: [ID, NAME, { key: 'email', header: 'Email' }, { key: 'active', header: 'Active' }],
  row: (r) => ({ id: r.id, name: r.name, email: r.email, active: r.active ? 'yes' : 'no' }),
  list: (app, query) => app.staff.listReceptionists(query, cliActor()),
  fields: [
    { key: 'name', arg: '<name>', description: 'full name', required: true },
    { key: 'email', arg: '<email>', description: 'e-mail address to sign in with', required: true },
  ],
  passwordFromStdin: true,
  add: (app, body, actor, password) => app.staff.createReceptionist({ ...body, password }, actor),
  removes: 'deactivate a receptionist: they are signed out and can no longer sign in',
  remove: async (app, id, actor) => {
    await app.staff.deactivateReceptionist(id, actor);
    return `Deactivated receptionist ${id}: they can no longer sign in.`;
  },
};

const labTechnicians: CatalogueGroup<StaffJson> = {
  ...receptionists,
  name: 'lab-technicians',
  singular: 'lab technician',
  list: (app, query) => app.staff.listLabTechnicians(query, cliActor()),
  add: (app, body, actor, password) => app.staff.createLabTechnician({ ...body, password }, actor),
  removes: 'deactivate a lab technician: they are signed out and can no longer sign in',
  remove: async (app, id, actor) => {
    await app.staff.deactivateLabTechnician(id, actor);
    return `Deactivated lab technician ${id}: they can no longer sign in.`;
  },
};

const nurses: CatalogueGroup<StaffJson> = {
  ...receptionists,
  name: 'nurses',
  singular: 'nurse',
  columns: [
    ID,
    NAME,
    { key: 'email', header: 'Email' },
    { key: 'department', header: 'Department' },
    { key: 'active', header: 'Active' },
  ],
  row: (r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    department: r.department?.name ?? '',
    active: r.active ? 'yes' : 'no',
  }),
  fields: [
    ...receptionists.fields,
    {
      key: 'department_id',
      arg: '<id>',
      description: 'the department whose beds they work (see `medora departments list`)',
      required: true,
    },
  ],
  list: (app, query) => app.staff.listNurses(query, cliActor()),
  add: (app, body, actor, password) => app.staff.createNurse({ ...body, password }, actor),
  removes: 'deactivate a nurse: they are signed out and can no longer sign in',
  remove: async (app, id, actor) => {
    await app.staff.deactivateNurse(id, actor);
    return `Deactivated nurse ${id}: they can no longer sign in.`;
  },
};

const CATALOGUE_GROUPS = [
  departments,
  specializations,
  diseases,
  rooms,
  doctors,
  receptionists,
  labTechnicians,
  nurses,
] as CatalogueGroup<unknown>[];

/** Every item of a list, page after page at the largest page size the use case allows. */
export async function allItems<T>(
  list: (query: Record<string, unknown>) => Promise<Page<T>>,
  q: string | undefined,
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const result = await list({ q, page, per_page: MAX_PER_PAGE });
    items.push(...result.items);
    if (result.items.length < MAX_PER_PAGE) return items;
  }
}

const optionName = (key: string) => key.replace(/_/g, '-');
const optionProperty = (key: string) => key.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());

function registerGroup<T>(program: Command, { getApp, io }: Cli, group: CatalogueGroup<T>): void {
  const command = program.command(group.name).description(`list, add and remove ${group.name}`);

  command
    .command('list')
    .description(`list ${group.name}`)
    .option('--search <text>', `only ${group.name} matching this text`)
    .addOption(formatOption())
    .action(async (opts: { search?: string; format?: string }) => {
      const app = await getApp();
      const items = await allItems((query) => group.list(app, query), opts.search);
      printRows(io.stdout, items.map(group.row), group.columns, chosenFormat(opts.format, io.stdout));
    });

  const add = command.command('add').description(`add a ${group.singular}`);
  if (group.passwordFromStdin) {
    add.requiredOption('--password-stdin', 'read the initial password from standard input');
  }
  for (const field of group.fields) {
    const flags = `--${optionName(field.key)} ${field.arg}`;
    if (field.required) add.requiredOption(flags, field.description);
    else add.option(flags, field.description);
  }
  add.addOption(formatOption()).action(async (opts: Record<string, string | undefined>) => {
    const body = Object.fromEntries(group.fields.map((field) => [field.key, opts[optionProperty(field.key)]]));
    const password = group.passwordFromStdin ? await readPassword(io.stdin) : undefined;
    const app = await getApp();
    const created = await group.add(app, body, cliActor(), password);
    printRecord(io.stdout, group.row(created), group.columns, chosenFormat(opts.format, io.stdout));
  });

  command
    .command('remove')
    .description(group.removes ?? `remove a ${group.singular}; refused while anything still uses it`)
    .argument('<id>', `the ${group.singular}'s id (see \`medora ${group.name} list\`)`)
    .action(async (id: string) => {
      const app = await getApp();
      writeLine(io.stdout, await group.remove(app, id, cliActor()));
    });
}

export function register(program: Command, cli: Cli): void {
  for (const group of CATALOGUE_GROUPS) registerGroup(program, cli, group);
}
