/** A person as a card: photo (or the default avatar), name, a few facts and one link. */
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { images } from '../paths.ts';

interface ProfileCardProps {
  name: string;
  image: string | null;
  facts: ReactNode[];
  link: { href: string; label: string };
}

export function ProfileCard({ name, image, facts, link }: ProfileCardProps) {
  return (
    <li className="profile-card">
      <img className="profile-card-photo" src={image ?? images.defaultAvatar} alt="" width="96" height="96" />
      <h2 className="profile-card-name">{name}</h2>
      {facts.filter((fact) => fact != null).map((fact, index) => (
        <p key={index} className="profile-card-fact">
          {fact}
        </p>
      ))}
      <Link href={link.href} className="button button-small button-primary" aria-label={`${link.label}: ${name}`}>
        {link.label}
      </Link>
    </li>
  );
}
