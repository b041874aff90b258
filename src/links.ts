/** Addresses of the UI's pages that the server, the mail worker and the command line hand out. */
export const RESET_PASSWORD_PATH = '/reset-password';
export const VERIFY_EMAIL_PATH = '/verify-email';
export const CANCEL_APPOINTMENT_PATH = '/appointments/cancel';
export const WAITLIST_OFFER_PATH = '/appointments/waitlist-offer';
/** The patient's bills, where the card processor sends them back: `?checkout=paid` or `?checkout=cancelled`. */
export const PATIENT_BILLS_PATH = '/user/patient/bills';
export const checkoutReturnLink = (origin: string, outcome: 'paid' | 'cancelled') =>
  `${origin}${PATIENT_BILLS_PATH}?checkout=${outcome}`;

/**
 * Links with a one-time token: it rides in the fragment, which browsers never send to a server, so it stays out
 * of access logs, proxies and Referer headers.
 */
const withToken = (origin: string, path: string, token: string) =>
  `${origin}${path}#token=${encodeURIComponent(token)}`;

export const resetPasswordLink = (origin: string, token: string) => withToken(origin, RESET_PASSWORD_PATH, token);
export const verifyEmailLink = (origin: string, token: string) => withToken(origin, VERIFY_EMAIL_PATH, token);
export const cancelAppointmentLink = (origin: string, token: string) =>
  withToken(origin, CANCEL_APPOINTMENT_PATH, token);
export const waitlistOfferLink = (origin: string, token: string) => withToken(origin, WAITLIST_OFFER_PATH, token);

/**
 * A calendar feed's private address. Calendar applications cannot carry a token in a fragment or a header, so it
 * is in the path, which the server's access log masks (CALENDAR_FEED_PREFIX).
 */
export const CALENDAR_FEED_PREFIX = '/api/calendar/';
export const calendarFeedLink = (origin: string, token: string) =>
  `${origin}${CALENDAR_FEED_PREFIX}${encodeURIComponent(token)}.ics`;
