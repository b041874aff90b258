import type { App } from '../../app.ts';
import { created, listOf, noContent, ok } from '../answers.ts';
import { accountChange, route as r, type Route } from '../router.ts';

/** The catalogue: departments, specializations, diseases, rooms, doctors and their photos. */
export function catalogueRoutes(app: App): Route[] {
  return [
    r('GET', '/api/files/{id}', 'public', async ({ params }) => {
      const image = await app.images.findImage(params.id);
      return {
        body: image.bytes,
        headers: { 'content-type': image.contentType, 'cache-control': 'public, max-age=86400' },
      };
    }),
    r('GET', '/api/admin/departments', 'admin', async ({ query }) =>
      listOf('departments', await app.catalogue.listDepartments(query)),
    ),
    r('POST', '/api/admin/departments', 'admin', async ({ body, actor }) =>
      created(await app.catalogue.createDepartment(body, actor)),
    ),
    r('GET', '/api/admin/departments/{id}', 'admin', async ({ params }) =>
      ok(await app.catalogue.getDepartment(params.id)),
    ),
    r('PUT', '/api/admin/departments/{id}', 'admin', async ({ params, body, actor }) =>
      ok(await app.catalogue.updateDepartment(params.id, body, actor)),
    ),
    accountChange(
      r('DELETE', '/api/admin/departments/{id}', 'admin', async ({ params, actor }) => {
        await app.catalogue.deleteDepartment(params.id, actor);
        return noContent();
      }),
    ),
    r('GET', '/api/admin/specializations', 'admin', async ({ query }) =>
      listOf('specializations', await app.catalogue.listSpecializations(query)),
    ),
    r('POST', '/api/admin/specializations', 'admin', async ({ body, actor }) =>
      created(await app.catalogue.createSpecialization(body, actor)),
    ),
    r('PUT', '/api/admin/specializations/{id}', 'admin', async ({ params, body, actor }) =>
      ok(await app.catalogue.updateSpecialization(params.id, body, actor)),
    ),
    r('DELETE', '/api/admin/specializations/{id}', 'admin', async ({ params, actor }) => {
      await app.catalogue.deleteSpecialization(params.id, actor);
      return noContent();
    }),
    r('GET', '/api/admin/diseases', 'admin', async ({ query }) =>
      listOf('diseases', await app.catalogue.listDiseases(query)),
    ),
    r('GET', '/api/diseases', ['doctor', 'admin'], async ({ query }) =>
      listOf('diseases', await app.catalogue.listDiseases(query)),
    ),
    r('POST', '/api/admin/diseases', 'admin', async ({ body, actor }) =>
      created(await app.catalogue.createDisease(body, actor)),
    ),
    r('PUT', '/api/admin/diseases/{id}', 'admin', async ({ params, body, actor }) =>
      ok(await app.catalogue.updateDisease(params.id, body, actor)),
    ),
    r('DELETE', '/api/admin/diseases/{id}', 'admin', async ({ params, actor }) => {
      await app.catalogue.deleteDisease(params.id, actor);
      return noContent();
    }),
    r('GET', '/api/admin/rooms', 'admin', async ({ query }) => listOf('rooms', await app.catalogue.listRooms(query))),
    r('POST', '/api/admin/rooms', 'admin', async ({ body, actor }) =>
      created(await app.catalogue.createRoom(body, actor)),
    ),
    r('GET', '/api/admin/rooms/{id}', 'admin', async ({ params }) => ok(await app.catalogue.getRoom(params.id))),
    r('PUT', '/api/admin/rooms/{id}', 'admin', async ({ params, body, actor }) =>
      ok(await app.catalogue.updateRoom(params.id, body, actor)),
    ),
    r('DELETE', '/api/admin/rooms/{id}', 'admin', async ({ params, actor }) => {
      await app.catalogue.deleteRoom(params.id, actor);
      return noContent();
    }),
    r('GET', '/api/admin/doctors', 'admin', async ({ query }) =>
      listOf('doctors', await app.doctors.listDoctors(query)),
    ),
    r('GET', '/api/doctors', 'user', async ({ query }) => listOf('doctors', await app.doctors.listDoctors(query))),
    r('GET', '/api/patient/doctors', 'patient', async ({ query, actor }) => {
      const page = await app.doctors.listDoctors(query);
      const nextFree = await app.scheduling.nextFreeTimes(
        page.items.map((doctor) => doctor.id),
        actor,
      );
      const withNextFree = page.items.map((doctor) =>
        nextFree.has(doctor.id) ? { ...doctor, next_free: nextFree.get(doctor.id) } : doctor,
      );
      return listOf('doctors', { ...page, items: withNextFree });
    }),
    r('POST', '/api/admin/doctors', 'admin', async ({ body, actor }) =>
      created(await app.doctors.createDoctor(body, actor)),
    ),
    r('GET', '/api/admin/doctors/{id}', 'admin', async ({ params }) => ok(await app.doctors.getDoctor(params.id))),
    r('GET', '/api/doctors/{id}', 'user', async ({ params }) => ok(await app.doctors.getDoctor(params.id))),
    accountChange(
      r('PUT', '/api/admin/doctors/{id}', 'admin', async ({ params, body, actor }) =>
        ok(await app.doctors.updateDoctor(params.id, body, actor)),
      ),
    ),
    accountChange(
      r('DELETE', '/api/admin/doctors/{id}', 'admin', async ({ params, actor }) =>
        ok(await app.doctors.deleteDoctor(params.id, actor)),
      ),
    ),
  ];
}
