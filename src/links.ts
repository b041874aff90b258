/** Addresses of the UI's pages that the server and the command line hand out. */
export const RESET_PASSWORD_PATH = '/reset-password';

/**
 * A reset link: the token rides in the fragment, which browsers never send to a server, so it stays out of
 * access logs, proxies and Referer headers.
 */
export const resetPasswordLink = (origin: string, token: string) => `${origin}${RESET_PASSWORD_PATH}#token=${encodeURIComponent(token)}`;
