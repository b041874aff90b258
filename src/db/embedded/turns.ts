import { databaseBusy } from '../sql-errors.ts';

/** A first-come queue for the embedded database's one connection, where a waiter gives up after its timeout. */
export class Turns {
  private tail: Promise<void> = Promise.resolve();

  /** Resolves with the function that ends this turn, or rejects 503 when the turn does not come in time. */
  take(timeoutMs: number): Promise<() => void> {
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => ended);
    return new Promise((resolve, reject) => {
      let gaveUp = false;
      const timer = setTimeout(() => {
        gaveUp = true;
        end(); // the queue moves on past this waiter once its predecessor is done
        reject(databaseBusy());
      }, timeoutMs);
      void previous.then(() => {
        clearTimeout(timer);
        if (!gaveUp) resolve(end);
      });
    });
  }
}
