/** The signed-in layout shared by every role: header, the role's sidebar menu and the page. */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { Role } from '../../domain/shared/actor.ts';
import { ConfirmProvider } from './confirm.tsx';
import { ShellHeader } from './shell-header.tsx';
import { Sidebar } from './sidebar.tsx';

const WIDE_SCREEN = '(min-width: 900px)';

export default function AppShell({ role, children }: { role: Role; children: ReactNode }) {
  const [wide, setWide] = useState(() => window.matchMedia(WIDE_SCREEN).matches);
  const [sidebarOpen, setSidebarOpen] = useState(wide);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const sidebarRef = useRef<HTMLElement>(null);

  // The sidebar sits beside the page on a wide screen and over it on a narrow one, so it follows the width.
  useEffect(() => {
    const query = window.matchMedia(WIDE_SCREEN);
    const follow = (event: MediaQueryListEvent) => {
      setWide(event.matches);
      setSidebarOpen(event.matches);
    };
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, []);

  // Over the page on a phone, the sidebar is a panel: Escape (focus back on the toggle) or a tap outside closes it.
  const overPage = sidebarOpen && !wide;
  useEffect(() => {
    if (!overPage) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setSidebarOpen(false);
      toggleRef.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!toggleRef.current?.contains(target) && !sidebarRef.current?.contains(target)) setSidebarOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [overPage]);

  // On a phone the sidebar covers the page, so following a link closes it.
  const closeOnPhone = () => {
    if (!wide) setSidebarOpen(false);
  };

  return (
    <ConfirmProvider>
      <div className={sidebarOpen ? 'shell sidebar-open' : 'shell'}>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <ShellHeader
          sidebarOpen={sidebarOpen}
          toggleRef={toggleRef}
          onToggleSidebar={() => setSidebarOpen((open) => !open)}
        />
        <Sidebar role={role} open={sidebarOpen} navRef={sidebarRef} onNavigate={closeOnPhone} />
        {overPage && <div className="sidebar-backdrop" aria-hidden="true" />}
        <main id="main" className="shell-main" tabIndex={-1}>
          {children}
        </main>
      </div>
    </ConfirmProvider>
  );
}
