import { Link } from 'wouter';
import { routes } from '../../paths.ts';

export default function NotFoundPage() {
  return (
    <div className="not-found">
      <h1>Page not found</h1>
      <p>There is no page at this address.</p>
      <Link href={routes.home}>Go to the home page</Link>
    </div>
  );
}
