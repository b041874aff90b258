import type { Db } from '../db/db.ts';

/**
 * The database, and when a listener on it first hears the database's notices. A server remembers sessions only
 * from then on (src/db/session-cache.ts), so a test that counts lookups, or relies on one being remembered, waits
 * for it: on a busy machine the listening connection may come up after the first requests.
 */
export function hearingOf(db: Db): { db: Db; live: Promise<void> } {
  let heard = () => {};
  const live = new Promise<void>((resolve) => (heard = resolve));
  const listen: Db['listen'] = (channel, listener) =>
    db.listen(channel, {
      ...listener,
      live: () => {
        listener.live();
        heard();
      },
    });
  return { db: { ...db, listen }, live };
}
