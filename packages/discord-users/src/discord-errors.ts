/**
 * The Discord user does not exist (Discord answered 404 / Unknown User, code 10013). The gateway
 * answers 404. The message names only the id the caller sent, so it is safe to show.
 */
export class UnknownUserError extends Error {
  override readonly name = 'UnknownUserError';
  readonly userId: string;

  constructor(userId: string) {
    // Only a well-formed id is echoed: anything else is arbitrary caller text.
    super(/^\d{1,20}$/.test(userId) ? `no Discord user with id ${userId}` : 'not a Discord user id');
    this.userId = userId;
  }
}

/**
 * Discord could not give us the user right now. `status` is what the gateway should answer:
 * - 502: Discord answered, but not usefully (5xx, unreadable JSON, or it refused our bot token);
 * - 503: Discord did not answer in time, could not be reached, or rate limits us for longer than
 *   we are willing to wait; `retryAfterSeconds` is then set when Discord told us how long.
 * Messages are public-safe: never the token, a URL or a library's error text.
 */
export class DiscordUnavailableError extends Error {
  override readonly name = 'DiscordUnavailableError';
  readonly status: 502 | 503;
  /** Whole seconds until a retry can succeed, rounded up; only for rate limits and Discord 503s. */
  readonly retryAfterSeconds?: number;

  constructor(status: 502 | 503, message: string, options: { retryAfterSeconds?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
