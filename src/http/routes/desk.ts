import { DESK_ROLES } from '../../domain/shared/actor.ts';

/** The front desk's routes: reception's, and admins', who may do all the desk does. */
export const DESK = [...DESK_ROLES];
