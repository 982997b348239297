// The live preview: the real POST /v1/profile-image with the visitor's key (or, signed in to the
// account area, the same operation behind the session, on the account's preview budget), debounced
// while they type, the request in flight aborted when a newer one starts, and a rate limit waited out.

/**
 * A request carries a key (`Authorization`), or a session's CSRF token (the session cookie goes with it).
 * @typedef {{ path: string, accept: string, body: Record<string, unknown> } & ({ key: string } | { csrfToken: string })} CardRequest
 * @typedef {{ blob: Blob, ms: number, render: string, altText: string, frames: string | null,
 *   contentType: string, remaining: string | null, policy: string | null }} CardAnswer
 * @typedef {{ status: number, code: string, message: string, details: { in: string, field: string, message: string }[],
 *   retryAfterSeconds: number | undefined }} CardProblem
 */

/** The alt text header is an RFC 8187 ext-value: `UTF-8''` then percent-encoded UTF-8. */
export function decodeAltText(/** @type {string | null} */ header) {
  if (!header) return '';
  try {
    return decodeURIComponent(header.replace(/^UTF-8''/i, ''));
  } catch {
    return '';
  }
}

/**
 * An error answer of the API (its JSON error, or the status alone), for the preview and the template form.
 * @param {Response} response
 * @returns {Promise<CardProblem>}
 */
export async function problemOf(response) {
  const retryAfter = Number(response.headers.get('retry-after'));
  const retryAfterSeconds = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined;
  try {
    const body = await response.json();
    const error = body?.error ?? {};
    return {
      status: response.status,
      code: String(error.code ?? 'error'),
      message: String(error.message ?? `The API answered ${response.status}.`),
      details: Array.isArray(error.details) ? error.details : [],
      retryAfterSeconds,
    };
  } catch {
    return { status: response.status, code: 'error', message: `The API answered ${response.status} ${response.statusText}.`, details: [], retryAfterSeconds };
  }
}

/**
 * @param {{
 *   buildRequest: () => CardRequest | undefined,
 *   onStart: () => void,
 *   onAnswer: (answer: CardAnswer) => void,
 *   onProblem: (problem: CardProblem) => void,
 *   delayMs?: number,
 * }} handlers
 */
export function createPreviewer({ buildRequest, onStart, onAnswer, onProblem, delayMs = 400 }) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @type {AbortController | undefined} */
  let inFlight;
  /** The last request that got a final answer: the same request again would get the same answer. */
  let answered = '';
  /** While rate limited, nothing is sent before this time (ms since the epoch). */
  let blockedUntil = 0;

  const wait = (/** @type {number} */ ms) => {
    clearTimeout(timer);
    timer = setTimeout(() => void send(), ms);
  };

  async function send() {
    const request = buildRequest();
    if (!request) return;
    const signature = JSON.stringify(request);
    if (signature === answered) return;
    const blockedFor = blockedUntil - Date.now();
    if (blockedFor > 0) {
      wait(blockedFor);
      return;
    }
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    onStart();
    const started = performance.now();
    try {
      const credentials = 'key' in request ? { Authorization: request.key } : { 'X-CSRF-Token': request.csrfToken };
      const response = await fetch(request.path, {
        method: 'POST',
        headers: { ...credentials, 'Content-Type': 'application/json', Accept: request.accept },
        body: JSON.stringify(request.body),
        signal: controller.signal,
        // The session cookie only for the session's own preview route; a key needs no cookie.
        credentials: 'key' in request ? 'omit' : 'same-origin',
        cache: 'no-store',
      });
      if (!response.ok) {
        const problem = await problemOf(response);
        if (controller.signal.aborted) return;
        if (response.status === 429) {
          // Not final: the same request is sent again once the API says it may be.
          blockedUntil = Date.now() + (problem.retryAfterSeconds ?? 1) * 1000;
          wait(blockedUntil - Date.now());
        } else {
          answered = signature;
        }
        onProblem(problem);
        return;
      }
      const blob = await response.blob();
      if (controller.signal.aborted) return;
      answered = signature;
      onAnswer({
        blob,
        ms: Math.round(performance.now() - started),
        render: response.headers.get('x-card-render') ?? '',
        altText: decodeAltText(response.headers.get('x-alt-text')),
        frames: response.headers.get('x-card-frames'),
        contentType: response.headers.get('content-type') ?? blob.type,
        remaining: response.headers.get('ratelimit-remaining'),
        policy: response.headers.get('ratelimit-policy'),
      });
    } catch (error) {
      if (controller.signal.aborted) return;
      onProblem({ status: 0, code: 'network', message: `The API did not answer (${error instanceof Error ? error.message : String(error)}).`, details: [], retryAfterSeconds: undefined });
    } finally {
      if (inFlight === controller) inFlight = undefined;
    }
  }

  return {
    /** A change: the request goes out once typing pauses. */
    schedule: () => wait(delayMs),
    /** Forget the last answer (a new key, say) and send after `delay` ms (typing pauses by default). */
    refresh(delay = delayMs) {
      answered = '';
      wait(delay);
    },
    /** When the rate limit lets the next request go (ms since the epoch), or 0. */
    blockedUntil: () => blockedUntil,
  };
}
