/**
 * The router, drawn from the route table (route-table.ts). Every page is its own lazy chunk, so a visitor of `/` or
 * `/login` downloads no page of the signed-in areas; the signed-in shell is a chunk of its own too.
 */
import { lazy, Suspense, useLayoutEffect, type ComponentType, type LazyExoticComponent } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import type { Role } from '../domain/shared/actor.ts';
import { role } from './auth.ts';
import { routes } from './paths.ts';
import { accountPage, areaPages, areaRedirects, notFoundPage, publicPages } from './route-table.ts';
import { applyStylesheetFor } from './stylesheet.ts';

type Page = LazyExoticComponent<ComponentType>;

// esbuild bundles every src/web/pages/**/*-page.tsx this template can name, each as a chunk of its own.
const lazyPage = (module: string): Page =>
  lazy(() => import(`./pages/${module}-page.tsx`) as Promise<{ default: ComponentType }>);
const lazyPages = (table: Record<string, string>) =>
  Object.entries(table).map(([path, module]) => [path, lazyPage(module)] as const);

const publicRoutes = lazyPages(publicPages);
const areaRoutes = {
  admin: lazyPages(areaPages.admin),
  doctor: lazyPages(areaPages.doctor),
  patient: lazyPages(areaPages.patient),
  reception: lazyPages(areaPages.reception),
  lab: lazyPages(areaPages.lab),
  nurse: lazyPages(areaPages.nurse),
} satisfies Record<Role, unknown>;
const AccountPage = lazyPage(accountPage);
const NotFoundPage = lazyPage(notFoundPage);
// The path is route-table.ts's SHELL_SOURCE, which the build preloads.
const AppShell = lazy(() => import('./components/app-shell.tsx'));

export function App() {
  const [location] = useLocation();
  useLayoutEffect(() => applyStylesheetFor(location), [location]);

  return (
    <Suspense fallback={<Loading />}>
      <Switch>
        {publicRoutes.map(([path, page]) => (
          <Route key={path} path={path} component={page} />
        ))}
        <Route path="/user/*?" component={SignedInArea} />
        <Route>
          {/* Inside an area the shell gives the page its <main>; out here nothing else does. */}
          <main>
            <NotFoundPage />
          </main>
        </Route>
      </Switch>
    </Suspense>
  );
}

/** The client-side guard of spec §4: not signed in → /login; a role outside its area → /user/{role}. */
function SignedInArea() {
  useSignals();
  const [location] = useLocation();
  const currentRole = role.value;
  if (!currentRole) return <Redirect to={routes.login} replace />;
  const area = location.split('/')[2];
  if (area !== currentRole) return <Redirect to={routes.userArea(currentRole)} replace />;

  return (
    <AppShell role={currentRole}>
      <Suspense fallback={<Loading />}>
        <Switch>
          {Object.entries(areaRedirects).map(([from, to]) => (
            <Route key={from} path={from}>
              <Redirect to={to} replace />
            </Route>
          ))}
          {areaRoutes[currentRole].map(([path, page]) => (
            <Route key={path} path={path} component={page} />
          ))}
          <Route path={routes.account(currentRole)} component={AccountPage} />
          <Route component={NotFoundPage} />
        </Switch>
      </Suspense>
    </AppShell>
  );
}

function Loading() {
  return (
    <p className="loading" role="status">
      Loading…
    </p>
  );
}
