/**
 * A table row's actions in two controls whatever their number: the first as a button, the rest with the row's
 * Details in a menu button (the ARIA menu pattern: arrow keys, Home and End move, Escape and Tab close, the focus
 * returns to the button). A row with one action or none shows Details as a button of its own.
 */
import { useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { Link, useLocation } from 'wouter';
import { useDisclosure } from './use-disclosure.ts';

export interface RowAction {
  /** The visible text: "Edit", "Cancel". */
  label: string;
  /** The accessible name, naming the row too ("Edit Cardiology"); it holds `label`. */
  name?: string;
  /** Where it goes, for an action that opens a page; otherwise what it does. */
  href?: string;
  onSelect?: () => void;
  tone?: 'primary' | 'danger';
}

const buttonClass = (action: RowAction) =>
  ['button button-small', action.tone && `button-${action.tone}`].filter(Boolean).join(' ');

interface RowActionsProps {
  actions: RowAction[];
  /** Names the row for the menu and Details buttons: "More actions for {rowName}". */
  rowName: string;
  onDetails: () => void;
  /** What stands before the actions, such as the status of a visit that has none left. */
  note?: ReactNode;
}

export function RowActions({ actions, rowName, onDetails, note }: RowActionsProps) {
  const [first, ...rest] = actions;
  const details: RowAction = { label: 'Details', name: `Details of ${rowName}`, onSelect: onDetails };
  return (
    <div className="row-actions">
      {note}
      {first && <ActionButton action={first} />}
      {rest.length > 0 ? (
        <RowMenu label={`More actions for ${rowName}`} items={[...rest, details]} />
      ) : (
        <ActionButton action={details} />
      )}
    </div>
  );
}

function ActionButton({ action }: { action: RowAction }) {
  if (action.href)
    return (
      <Link href={action.href} className={buttonClass(action)} aria-label={action.name}>
        {action.label}
      </Link>
    );
  return (
    <button type="button" className={buttonClass(action)} onClick={action.onSelect} aria-label={action.name}>
      {action.label}
    </button>
  );
}

/** Where the open menu stands: under its button, or over it when the viewport ends below; right-aligned with it. */
function useMenuPlace(open: boolean, buttonRef: RefObject<HTMLElement | null>, menuRef: RefObject<HTMLElement | null>) {
  useLayoutEffect(() => {
    const [button, menu] = [buttonRef.current, menuRef.current];
    if (!open || !button || !menu) return;
    const place = () => {
      const at = button.getBoundingClientRect();
      const below = at.bottom + 4 + menu.offsetHeight <= window.innerHeight;
      menu.style.top = `${below ? at.bottom + 4 : Math.max(4, at.top - 4 - menu.offsetHeight)}px`;
      menu.style.left = `${Math.max(4, at.right - menu.offsetWidth)}px`;
    };
    place();
    window.addEventListener('scroll', place, true);
    window.addEventListener('resize', place);
    return () => {
      window.removeEventListener('scroll', place, true);
      window.removeEventListener('resize', place);
    };
  }, [open, buttonRef, menuRef]);
}

/** `text`: what the button shows (its name is `label`); "More ▾" unless a tight place wants less. */
export function RowMenu({ label, items, text }: { label: string; items: RowAction[]; text?: ReactNode }) {
  const { open, close, buttonProps, panelProps } = useDisclosure();
  const [, navigate] = useLocation();
  // Which item takes the focus once the menu is open: the first, or the last when opened with ArrowUp.
  const [start, setStart] = useState<'first' | 'last'>('first');
  const itemRefs = useRef<(HTMLButtonElement | null)[]>([]);
  useMenuPlace(open, buttonProps.ref, panelProps.ref);

  useLayoutEffect(() => {
    if (open) itemRefs.current[start === 'first' ? 0 : items.length - 1]?.focus();
  }, [open, start, items.length]);

  const closeToButton = () => {
    close();
    buttonProps.ref.current?.focus();
  };

  const openAt = (where: 'first' | 'last') => {
    setStart(where);
    if (!open) buttonProps.onClick();
  };

  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(event.key === 'ArrowDown' ? 'first' : 'last');
    } else if (event.key === 'Escape' && open) {
      // Only the menu closes, not a dialog the table stands in.
      event.preventDefault();
      event.stopPropagation();
      close();
    }
  };

  const onMenuKey = (event: KeyboardEvent) => {
    const focusable = itemRefs.current.filter((item): item is HTMLButtonElement => item !== null);
    const at = focusable.indexOf(document.activeElement as HTMLButtonElement);
    const move: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: focusable.length - 1 };
    const to = move[event.key];
    if (to !== undefined) {
      event.preventDefault();
      focusable[(to + focusable.length) % focusable.length]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      closeToButton();
    } else if (event.key === 'Tab') {
      close();
    }
  };

  const choose = (item: RowAction) => {
    // The focus is back on the button first, so a dialog the item opens returns it there.
    closeToButton();
    if (item.href) navigate(item.href);
    else item.onSelect?.();
  };

  return (
    <>
      <button
        {...buttonProps}
        className="button button-small row-menu-button"
        aria-haspopup="menu"
        aria-label={label}
        onClick={() => (open ? close() : openAt('first'))}
        onKeyDown={onButtonKey}
      >
        {text ?? (
          <>
            More <span aria-hidden="true">▾</span>
          </>
        )}
      </button>
      <div {...panelProps} className="row-menu" role="menu" aria-label={label} onKeyDown={onMenuKey}>
        {items.map((item, index) => (
          <button
            key={item.label}
            ref={(element) => {
              itemRefs.current[index] = element;
            }}
            type="button"
            role="menuitem"
            tabIndex={-1}
            className={item.tone === 'danger' ? 'row-menu-item row-menu-danger' : 'row-menu-item'}
            aria-label={item.name}
            onClick={() => choose(item)}
          >
            {item.label}
          </button>
        ))}
      </div>
    </>
  );
}
