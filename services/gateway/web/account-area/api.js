// Calls to /account/api/*. Same origin only; state-changing calls carry the session's CSRF token
// (from /account/api/me) in a header, which no other site can read or set on our behalf.

/** @type {string | undefined} */
let csrfToken;

/** @param {string} token */
export function useCsrfToken(token) {
  csrfToken = token;
}

export class ApiFailure extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * @param {string} path
 * @param {{ method?: string, body?: unknown }} [options]
 * @returns {Promise<any>}
 */
export async function api(path, options = {}) {
  const method = options.method ?? 'GET';
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new ApiFailure(0, 'network', 'The server could not be reached. Check your connection and try again.');
  }
  const body = await response.json().catch(() => undefined);
  if (!response.ok) {
    // A session that ended (idle, signed out elsewhere) goes back to the sign-in page.
    if (response.status === 401 && path !== '/account/api/sign-in/link') location.assign('/account/sign-in?error=session_ended');
    throw new ApiFailure(response.status, body?.error?.code ?? 'error', body?.error?.message ?? `The server answered ${response.status}.`);
  }
  return body;
}
