/** The frame of the sign-up, sign-in and forgot-password pages, with the spec's taglines. */
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { routes } from '../paths.ts';

export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="auth-page">
      <aside className="auth-aside">
        <Link href={routes.home} className="brand brand-light">
          Medora
        </Link>
        <p className="auth-tagline">We aim to make your life better</p>
        <p className="auth-subline">Free access to our dashboard.</p>
      </aside>
      <main className="auth-main">
        <div className="auth-card">
          <h1>{title}</h1>
          {children}
        </div>
      </main>
    </div>
  );
}
