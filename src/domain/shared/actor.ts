export const ROLES = ['patient', 'doctor', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const GENDERS = ['male', 'female', 'other'] as const;
export type Gender = (typeof GENDERS)[number];

/** Who is asking: the signed-in user, with the patient or doctor row their role implies. */
export interface Actor {
  userId: number;
  role: Role;
  name: string;
  patientId?: number;
  doctorId?: number;
  requestId?: string;
}

/** The CLI acts as an admin of its own. */
export const cliActor = (requestId = 'cli'): Actor => ({ userId: 0, role: 'admin', name: 'medora cli', requestId });
