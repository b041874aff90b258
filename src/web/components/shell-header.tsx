import { useEffect, type RefObject } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { Link } from 'wouter';
import { user } from '../auth.ts';
import { capitalize } from '../format.ts';
import { images, routes } from '../paths.ts';
import { loadCurrentUser, signOut } from '../session.ts';
import { ChevronDownIcon, MenuIcon, SignOutIcon } from './icons.tsx';
import { useDisclosure } from './use-disclosure.ts';

interface ShellHeaderProps {
  sidebarOpen: boolean;
  toggleRef: RefObject<HTMLButtonElement | null>;
  onToggleSidebar: () => void;
}

export function ShellHeader({ sidebarOpen, toggleRef, onToggleSidebar }: ShellHeaderProps) {
  useSignals();
  const account = useDisclosure();

  useEffect(() => {
    void loadCurrentUser();
  }, []);

  const current = user.value;
  const roleLabel = `${current ? capitalize(current.role) : 'User'} Profile`;

  return (
    <header className="shell-header">
      <button
        ref={toggleRef}
        type="button"
        className="icon-button sidebar-toggle"
        onClick={onToggleSidebar}
        aria-expanded={sidebarOpen}
        aria-controls="sidebar"
        aria-label="Toggle sidebar"
      >
        <MenuIcon />
      </button>
      <Link href={routes.home} className="brand">
        Medora
      </Link>
      <div className="account">
        <button {...account.buttonProps} className="account-button">
          <img className="avatar" src={current?.profile_image ?? images.defaultAvatar} alt="" width="36" height="36" />
          <span className="account-names">
            <span className="account-name">{current?.name}</span>
            <span className="account-role">{roleLabel}</span>
          </span>
          <ChevronDownIcon />
        </button>
        <div {...account.panelProps} className="account-panel">
          <p className="account-panel-names">
            <span className="account-name">{current?.name}</span>
            <span className="account-role">{roleLabel}</span>
          </p>
          <p className="account-email">{current?.email}</p>
          <Link href={routes.signup} className="account-link" onClick={account.close}>
            Add personal account
          </Link>
          <button type="button" className="account-link" onClick={signOut}>
            <SignOutIcon /> Signout
          </button>
        </div>
      </div>
    </header>
  );
}
