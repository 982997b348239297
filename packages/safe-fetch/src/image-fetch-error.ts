/**
 * Why a remote image was refused before (or while) its bytes arrived: the URL, the network, the
 * transfer, or what the first bytes say about the image.
 */
export type ImageFetchRefusal =
  /** The URL does not parse, has no host, or a redirect's Location does not resolve to a URL. */
  | 'invalid_url'
  /** Only http and https are fetched. */
  | 'forbidden_scheme'
  /** A port outside `allowedPorts` on a host that is not on the private allow-list. */
  | 'forbidden_port'
  /** `user:password@` in the URL: never forwarded, so never accepted. */
  | 'userinfo'
  /** The host is not the one this input is pinned to (`onlyHost`), directly or after a redirect. */
  | 'forbidden_host'
  /** The host is, or resolves to, an address that is not public (loopback, private, link-local...). */
  | 'forbidden_address'
  | 'too_many_redirects'
  /** A redirect from https to http. */
  | 'insecure_redirect'
  /** The whole fetch, redirects included, did not finish within the deadline. */
  | 'timeout'
  /** The caller called it off (its card had already failed for another reason). */
  | 'cancelled'
  /** More bytes than the cap, announced by Content-Length or counted while streaming. */
  | 'too_large'
  /** The card's images together crossed the per-card byte budget (see `FetchBudget`). */
  | 'over_card_budget'
  /** The bytes are not PNG, JPEG, GIF or WebP (read from the magic bytes, never the Content-Type). */
  | 'unsupported_format'
  /** The header declares more pixels, or a longer side, than a card image may have. */
  | 'too_many_pixels'
  /** The body ended before its size could be read from the header, or the header is malformed. */
  | 'corrupt'
  /** The remote answered with a status that is neither 2xx nor a followed redirect. */
  | 'http_status'
  /** DNS failure, connection refused or reset, TLS failure. */
  | 'unreachable'
  /** The connection ended before the body the server announced was complete. */
  | 'truncated'
  /** A compressed response (Content-Encoding other than identity), although identity was asked for. */
  | 'unsupported_encoding';

/**
 * A remote image could not be fetched. `message` is written for the API user: it starts with the
 * field the URL came from and never carries resolved internal addresses, library messages or
 * socket error codes, so the gateway may show it as is.
 */
export class ImageFetchError extends Error {
  override readonly name = 'ImageFetchError';
  readonly reason: ImageFetchRefusal;
  /** Which request input the URL came from, e.g. `customBackground`, `customBadges.2`, `avatar`. */
  readonly field: string;
  /** The public-safe sentence about the problem, without the field (`message` prefixes it). */
  readonly detail: string;

  constructor(reason: ImageFetchRefusal, field: string, detail: string) {
    super(`${field}: ${detail}`);
    this.reason = reason;
    this.field = field;
    this.detail = detail;
  }
}
