import { useEffect, useState, type ComponentType } from 'react';
import { Link } from 'wouter';
import {
  AmbulanceIcon,
  AwardIcon,
  BuildingIcon,
  DnaIcon,
  FlaskIcon,
  HeartBeatIcon,
  MenuIcon,
  PillIcon,
  ShieldIcon,
  StethoscopeIcon,
  WalkIcon,
  ChevronDownIcon,
  type IconProps,
} from '../../components/icons.tsx';
import { useDisclosure } from '../../components/use-disclosure.ts';
import { routes } from '../../paths.ts';

const COUNT_UP_MS = 1000;

const counters: { target: number; label: string; icon: ComponentType<IconProps> }[] = [
  { target: 85, label: 'Medical Experts', icon: StethoscopeIcon },
  { target: 18, label: 'Departments', icon: BuildingIcon },
  { target: 12, label: 'Research Labs', icon: FlaskIcon },
  { target: 150, label: 'Awards', icon: AwardIcon },
];

const services: { name: string; text: string; icon: ComponentType<IconProps> }[] = [
  { name: 'Cardiology', text: 'Heart checks, ECG and long-term care for every heart condition.', icon: HeartBeatIcon },
  { name: 'Pharmacy', text: 'Prescriptions filled on site, with advice on every medicine.', icon: PillIcon },
  { name: 'Emergency Care', text: 'A team ready day and night for urgent and critical care.', icon: AmbulanceIcon },
  { name: 'Genetics and Diagnostics', text: 'Laboratory tests, imaging and genetic counselling.', icon: DnaIcon },
  { name: 'Rehabilitation', text: 'Physiotherapy that gets you moving again after illness or injury.', icon: WalkIcon },
  { name: 'Preventive Health', text: 'Screenings and vaccinations that keep problems away.', icon: ShieldIcon },
];

export default function LandingPage() {
  return (
    <>
      <a className="skip-link" href="#hero">
        Skip to content
      </a>
      <SiteHeader />
      <main>
        <section id="hero" className="hero" tabIndex={-1}>
          <div className="container hero-inner">
            <h1>Care that puts you first</h1>
            <p className="lead">
              Book an appointment with our specialists, see your visits and pay your bills — all in one place.
            </p>
            <div className="hero-actions">
              <Link href={routes.signup} className="button button-primary">
                Get started
              </Link>
              <a href="#services" className="button button-ghost">
                Our services
              </a>
            </div>
          </div>
        </section>

        <section id="about" className="about" aria-labelledby="about-title">
          <div className="container">
            <h2 id="about-title">About Medora</h2>
            <p>
              Medora is a teaching clinic where doctors, nurses and researchers work together. We aim to make your life
              better with care that is close to home, quick to reach and built around each patient.
            </p>
            <ul className="counters">
              {counters.map((counter) => (
                <li key={counter.label} className="counter">
                  <counter.icon className="counter-icon" />
                  <Counter target={counter.target} label={counter.label} />
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section id="services" className="services" aria-labelledby="services-title">
          <div className="container">
            <h2 id="services-title">Services</h2>
            <ul className="service-grid">
              {services.map((service) => (
                <li key={service.name} className="service-card">
                  <service.icon className="service-icon" />
                  <h3>{service.name}</h3>
                  <p>{service.text}</p>
                </li>
              ))}
            </ul>
          </div>
        </section>
      </main>
      <footer className="site-footer">
        <div className="container">
          <p>© Medora clinic. We aim to make your life better.</p>
        </div>
      </footer>
    </>
  );
}

function SiteHeader() {
  const nav = useDisclosure();
  const profile = useDisclosure();
  return (
    <header className="site-header">
      <div className="container site-header-inner">
        <a href="#hero" className="brand">
          Medora
        </a>
        <button {...nav.buttonProps} className="nav-toggle" aria-label="Toggle navigation">
          <MenuIcon />
        </button>
        <div {...nav.panelProps} className="site-nav">
          <nav aria-label="Sections">
            <ul className="site-nav-links">
              <li>
                {/* biome-ignore lint/a11y/useValidAnchor: an in-page link that also closes the phone's menu */}
                <a href="#hero" onClick={nav.close}>
                  Home
                </a>
              </li>
              <li>
                {/* biome-ignore lint/a11y/useValidAnchor: an in-page link that also closes the phone's menu */}
                <a href="#about" onClick={nav.close}>
                  About
                </a>
              </li>
              <li>
                {/* biome-ignore lint/a11y/useValidAnchor: an in-page link that also closes the phone's menu */}
                <a href="#services" onClick={nav.close}>
                  Services
                </a>
              </li>
            </ul>
          </nav>
          <div className="site-nav-actions">
            <Link href={routes.signup} className="button button-ghost">
              Sign up
            </Link>
            <Link href={routes.login} className="button button-primary">
              Sign in
            </Link>
            <div className="dropdown">
              <button {...profile.buttonProps} className="button button-ghost">
                Profile <ChevronDownIcon />
              </button>
              <div {...profile.panelProps} className="dropdown-panel">
                <ul>
                  <li>
                    <Link href={routes.admin.dashboard}>Admin</Link>
                  </li>
                  <li>
                    <Link href={routes.userArea('patient')}>Patient</Link>
                  </li>
                  <li>
                    <Link href={routes.userArea('doctor')}>Doctor</Link>
                  </li>
                </ul>
              </div>
            </div>
          </div>
        </div>
      </div>
    </header>
  );
}

function Counter({ target, label }: { target: number; label: string }) {
  const value = useCountUp(target, COUNT_UP_MS);
  return (
    <p className="counter-text">
      <strong className="counter-value" data-target={target}>
        {value}
      </strong>
      <span>{label}</span>
    </p>
  );
}

/** Counts from 0 to `target` over `durationMs`; shows the number at once when motion is reduced. */
function useCountUp(target: number, durationMs: number): number {
  const [value, setValue] = useState(0);
  useEffect(() => {
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) {
      setValue(target);
      return;
    }
    const start = performance.now();
    let frame = requestAnimationFrame(function step(now) {
      const progress = Math.min(1, (now - start) / durationMs);
      setValue(Math.round(target * progress));
      if (progress < 1) frame = requestAnimationFrame(step);
    });
    return () => cancelAnimationFrame(frame);
  }, [target, durationMs]);
  return value;
}
