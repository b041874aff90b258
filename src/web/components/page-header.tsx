import type { ReactNode } from 'react';

/**
 * The title of a signed-in page, with room for its actions on the right; `stacked` puts them under it, for a title
 * that arrives with the data (a patient's name) and would otherwise push them onto a second line once it does.
 */
export function PageHeader({
  title,
  stacked = false,
  children,
}: {
  title: string;
  stacked?: boolean;
  children?: ReactNode;
}) {
  return (
    <div className={stacked ? 'page-header stacked' : 'page-header'}>
      <h1 title={stacked ? title : undefined}>{title}</h1>
      {children && <div className="page-actions">{children}</div>}
    </div>
  );
}
