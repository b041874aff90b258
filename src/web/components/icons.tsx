/** Inline SVG icons (24×24, stroked in currentColor). Decorative unless given a `title`. */
import type { ReactNode } from 'react';

export interface IconProps {
  title?: string;
  className?: string;
}

function Icon({ title, className, children }: IconProps & { children: ReactNode }) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      role={title ? 'img' : undefined}
      aria-label={title}
      aria-hidden={title ? undefined : true}
      focusable="false"
    >
      {children}
    </svg>
  );
}

export const VirusIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="12" cy="12" r="5" />
    <path d="M12 2v5M12 17v5M2 12h5M17 12h5M4.9 4.9l3.6 3.6M15.5 15.5l3.6 3.6M4.9 19.1l3.6-3.6M15.5 8.5l3.6-3.6" />
  </Icon>
);

export const HeartBeatIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M20.4 5.6a5 5 0 0 0-7.1 0L12 6.9l-1.3-1.3a5 5 0 0 0-7.1 7.1L12 21l8.4-8.3a5 5 0 0 0 0-7.1z" />
    <path d="M3 12h5l1.5-3 3 6 1.5-3h7" />
  </Icon>
);

export const RibbonIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M12 3a4 4 0 0 0-4 4c0 3 4 7 4 7s4-4 4-7a4 4 0 0 0-4-4z" />
    <path d="M9.5 11.5 5 21l3.5-1.5L10 22l2-6M14.5 11.5 19 21l-3.5-1.5L14 22l-2-6" />
  </Icon>
);

export const PrescriptionIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M6 21V3h6a4 4 0 0 1 0 8H6M11 11l8 10M19 13l-6 8" />
  </Icon>
);

export const AwardIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="12" cy="9" r="6" />
    <path d="m8.5 13.9-1.5 8.1 5-3 5 3-1.5-8.1" />
  </Icon>
);

export const MenuIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M4 6h16M4 12h16M4 18h16" />
  </Icon>
);

export const ChevronDownIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="m6 9 6 6 6-6" />
  </Icon>
);

export const CloseIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M6 6l12 12M18 6 6 18" />
  </Icon>
);

export const CalendarIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="3" y="5" width="18" height="16" rx="2" />
    <path d="M3 10h18M8 3v4M16 3v4" />
  </Icon>
);

export const StethoscopeIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M5 3v6a5 5 0 0 0 10 0V3M10 14v2a5 5 0 0 0 10 0v-2" />
    <circle cx="20" cy="12" r="2" />
  </Icon>
);

export const UserIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21a8 8 0 0 1 16 0" />
  </Icon>
);

export const UsersIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2 20a7 7 0 0 1 14 0M16 4.5a3.5 3.5 0 0 1 0 7M18 14a6 6 0 0 1 4 6" />
  </Icon>
);

export const BillIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M6 2h12v20l-3-2-3 2-3-2-3 2z" />
    <path d="M9 7h6M9 11h6M9 15h4" />
  </Icon>
);

export const BuildingIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="4" y="3" width="16" height="18" rx="1" />
    <path d="M9 21v-4h6v4M8 7h2M14 7h2M8 11h2M14 11h2" />
  </Icon>
);

export const DashboardIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="3" y="3" width="8" height="8" rx="1" />
    <rect x="13" y="3" width="8" height="5" rx="1" />
    <rect x="13" y="10" width="8" height="11" rx="1" />
    <rect x="3" y="13" width="8" height="8" rx="1" />
  </Icon>
);

export const ClipboardIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="5" y="4" width="14" height="18" rx="2" />
    <path d="M9 2h6v4H9zM9 12h6M9 16h4" />
  </Icon>
);

export const DoorIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M5 21V3h11v18M3 21h18M13 12h.01" />
  </Icon>
);

export const SignOutIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10" />
  </Icon>
);

export const PillIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="2.5" y="8.5" width="19" height="7" rx="3.5" transform="rotate(-45 12 12)" />
    <path d="m8.5 8.5 7 7" />
  </Icon>
);

export const AmbulanceIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M2 16V7h11v9M13 10h4l4 4v2h-2M2 16h2M9 16h6" />
    <circle cx="6.5" cy="17" r="2" />
    <circle cx="17" cy="17" r="2" />
    <path d="M7.5 9v4M5.5 11h4" />
  </Icon>
);

export const DnaIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M7 3c0 6 10 6 10 12s-10 6-10 6M17 3c0 6-10 6-10 12M9 6h6M8 9.5h8M8 14.5h8M9 18h6" />
  </Icon>
);

export const WalkIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="13" cy="4" r="2" />
    <path d="m9 21 3-7 3 3v4M7 12l3-4 4 1 3 3M12 14l-1-5" />
  </Icon>
);

export const ShieldIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M12 3 4 6v6c0 5 3.5 8 8 9 4.5-1 8-4 8-9V6z" />
    <path d="m9 12 2 2 4-4" />
  </Icon>
);

export const FlaskIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M9 3h6M10 3v6l-5.5 9.5A2 2 0 0 0 6.2 21h11.6a2 2 0 0 0 1.7-2.5L14 9V3M7.5 15h9" />
  </Icon>
);

export const LockIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="5" y="11" width="14" height="9" rx="2" />
    <path d="M8 11V8a4 4 0 0 1 8 0v3" />
  </Icon>
);

export const MailIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="m3.5 6.5 8.5 6.5 8.5-6.5" />
  </Icon>
);

export const HourglassIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M6 3h12M6 21h12M7 3c0 5 10 5 10 9s-10 4-10 9M17 3c0 5-10 5-10 9s10 4 10 9" />
  </Icon>
);

export const BedIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M3 19V5M3 15h18v4M21 15v-3a3 3 0 0 0-3-3h-7v6M7 11.5h.01" />
  </Icon>
);
