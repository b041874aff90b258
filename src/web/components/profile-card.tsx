/** A person as a card: photo (or the default avatar, or their initials), name, a few facts, a link and perhaps a main action. */
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { images } from '../paths.ts';

interface CardLink {
  href: string;
  label: string;
}

interface ProfileCardProps {
  name: string;
  image: string | null;
  facts: ReactNode[];
  link: CardLink;
  /** The card's main action, beside `link` (which then is a plain button). */
  action?: CardLink;
  /** Without a photo, the name's initials rather than the default avatar. */
  initialsFallback?: boolean;
}

/** "Dr. Grace Hopper" → "GH": the first letters of the first and last words, titles left out. */
export const initialsOf = (name: string) => {
  const words = name.split(/\s+/).filter((word) => word && !word.endsWith('.'));
  return [words[0], words.length > 1 ? words[words.length - 1] : undefined]
    .map((word) => word?.charAt(0).toUpperCase() ?? '')
    .join('');
};

export function ProfileCard({ name, image, facts, link, action, initialsFallback = false }: ProfileCardProps) {
  return (
    <li className="profile-card">
      {image === null && initialsFallback ? (
        <span className="profile-card-photo profile-card-initials" aria-hidden="true">
          {initialsOf(name)}
        </span>
      ) : (
        <img className="profile-card-photo" src={image ?? images.defaultAvatar} alt="" width="96" height="96" />
      )}
      <h2 className="profile-card-name">{name}</h2>
      {facts
        .filter((fact) => fact != null)
        .map((fact, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the facts are fixed per card and never reorder
          <p key={index} className="profile-card-fact">
            {fact}
          </p>
        ))}
      <div className="profile-card-links">
        {[link, action].map(
          (each, index) =>
            each && (
              <Link
                key={each.label}
                href={each.href}
                className={`button button-small${index === 0 && action ? '' : ' button-primary'}`}
                aria-label={`${each.label}: ${name}`}
              >
                {each.label}
              </Link>
            ),
        )}
      </div>
    </li>
  );
}
