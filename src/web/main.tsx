import { createRoot } from 'react-dom/client';
import { clinicSettingsKnown, loadClinicSettings } from './clinic.ts';
import { App } from './routes.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
const app = createRoot(root);
app.render(<App />);
// Drawing again keeps every page's state and rewrites its dates in the clinic's locale and zone.
if (!clinicSettingsKnown) void loadClinicSettings().then((changed) => changed && app.render(<App />));
