import { useState, type RefObject } from 'react';
import { Link, useLocation } from 'wouter';
import type { Role } from '../../domain/shared/actor.ts';
import { signOut } from '../session.ts';
import { ChevronDownIcon, SignOutIcon } from './icons.tsx';
import { isGroup, roleMenus, type MenuGroup } from './role-menus.ts';

interface SidebarProps {
  role: Role;
  open: boolean;
  navRef: RefObject<HTMLElement | null>;
  onNavigate: () => void;
}

export function Sidebar({ role, open, navRef, onNavigate }: SidebarProps) {
  const [location] = useLocation();

  return (
    <nav ref={navRef} id="sidebar" className="sidebar" aria-label="Main menu" hidden={!open}>
      <ul className="menu">
        {roleMenus[role].map((item) =>
          isGroup(item) ? (
            <SubMenu key={item.label} group={item} location={location} onNavigate={onNavigate} />
          ) : (
            <li key={item.to}>
              <Link
                href={item.to}
                className="menu-link"
                aria-current={location === item.to ? 'page' : undefined}
                onClick={onNavigate}
              >
                <item.icon /> {item.label}
              </Link>
            </li>
          ),
        )}
        <li>
          <button type="button" className="menu-link" onClick={signOut}>
            <SignOutIcon /> Signout
          </button>
        </li>
      </ul>
    </nav>
  );
}

function SubMenu({ group, location, onNavigate }: { group: MenuGroup; location: string; onNavigate: () => void }) {
  const [expanded, setExpanded] = useState(() => group.links.some((link) => link.to === location));
  const listId = `submenu-${group.label.toLowerCase()}`;
  return (
    <li>
      <button
        type="button"
        className="menu-link"
        aria-expanded={expanded}
        aria-controls={listId}
        onClick={() => setExpanded(!expanded)}
      >
        <group.icon /> {group.label}
        <ChevronDownIcon className="submenu-chevron" />
      </button>
      <ul id={listId} className="submenu" hidden={!expanded}>
        {group.links.map((link) => (
          <li key={link.to}>
            <Link
              href={link.to}
              className="menu-link"
              aria-current={location === link.to ? 'page' : undefined}
              onClick={onNavigate}
            >
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </li>
  );
}
