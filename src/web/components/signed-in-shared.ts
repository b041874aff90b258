/**
 * The components and hooks most signed-in pages use. The build has the app shell and every signed-in page import
 * this module (scripts/build.ts): esbuild splits code by the set of lazy modules that reach it, so without it each
 * of these travels as a chunk of its own for each set of pages sharing it, and a page's first screen fetched ~30
 * files, which on a phone's connection costs round trips (Lighthouse's LCP). With it those no public page uses are
 * one file, and each of the others (alert, field, icons…) one file beside the public pages that use it.
 */
import './alert.tsx';
import './confirm.tsx';
import './data-table.tsx';
import './dialog.tsx';
import './field.tsx';
import './icons.tsx';
import './list-states.tsx';
import './named-select.tsx';
import './page-header.tsx';
import './row-actions.tsx';
import './status-badge.tsx';
import './use-alert.ts';
import './use-delayed.ts';
import './use-disclosure.ts';
import './use-fetched.ts';
import './use-latest-request.ts';
import './use-list-request.ts';
import './use-request.ts';
import './use-submit.ts';
