/** A person or thing as lists name it. */
export type Named = { id: number; name: string };

/** Wall-clock times of the clinic, 'HH:mm' (they compare correctly as strings). */
export interface TimeSpan {
  startTime: string;
  endTime: string;
}
