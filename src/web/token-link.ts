/** The one-time token of a link from an e-mail or the front desk: it rides in the fragment (`#token=…`). */
export const tokenFromAddress = () => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
