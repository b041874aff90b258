/** The signed-in layout shared by every role: header, the role's sidebar menu and the page. */
import { useEffect, useState, type ReactNode } from 'react';
import type { Role } from '../../domain/shared/actor.ts';
import { ConfirmProvider } from './confirm.tsx';
import { ShellHeader } from './shell-header.tsx';
import { Sidebar } from './sidebar.tsx';

const WIDE_SCREEN = '(min-width: 900px)';

export default function AppShell({ role, children }: { role: Role; children: ReactNode }) {
  const [sidebarOpen, setSidebarOpen] = useState(() => window.matchMedia(WIDE_SCREEN).matches);

  // The sidebar sits beside the page on a wide screen and over it on a narrow one, so it follows the width.
  useEffect(() => {
    const wide = window.matchMedia(WIDE_SCREEN);
    const follow = (event: MediaQueryListEvent) => setSidebarOpen(event.matches);
    wide.addEventListener('change', follow);
    return () => wide.removeEventListener('change', follow);
  }, []);

  // On a phone the sidebar covers the page, so following a link closes it.
  const closeOnPhone = () => {
    if (!window.matchMedia(WIDE_SCREEN).matches) setSidebarOpen(false);
  };

  return (
    <ConfirmProvider>
      <div className={sidebarOpen ? 'shell sidebar-open' : 'shell'}>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <ShellHeader sidebarOpen={sidebarOpen} onToggleSidebar={() => setSidebarOpen((open) => !open)} />
        <Sidebar role={role} open={sidebarOpen} onNavigate={closeOnPhone} />
        <main id="main" className="shell-main" tabIndex={-1}>
          {children}
        </main>
      </div>
    </ConfirmProvider>
  );
}
