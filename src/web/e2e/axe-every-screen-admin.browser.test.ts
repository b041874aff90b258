/** The every-screen sweep (axe-every-screen.ts) of admin: one file of three, so two browser workers share the sweep. */
import { sweepEveryScreen } from './axe-every-screen.ts';

sweepEveryScreen(['admin']);
