/** The every-screen sweep (axe-every-screen.ts) of patient, reception, public: one file of three, so two browser workers share the sweep. */
import { sweepEveryScreen } from './axe-every-screen.ts';

sweepEveryScreen(['patient', 'reception', 'public']);
