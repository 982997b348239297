import { z } from 'zod';
import type { DiscordProfilesOptions } from './discord-profiles.ts';
import type { DiscordRoleColorsObject } from '@utility-api/render-jobs';
import { DiscordUnavailableError, discordMemberSchema, discordRoleSchema, discordUserSchema, UnknownUserError, type DiscordMember, type DiscordUser } from './discord-user.ts';
import { exhaustedBucketWaitMs, readRateLimitAnswer, type RateLimitGate } from './rate-limits.ts';

/** Discord's JSON error code for "Unknown User". */
const UNKNOWN_USER_CODE = 10013;

const errorBody = z.object({ code: z.number().optional() });

/** Discord's own limit on a server name; a longer one (a hostile answer) is cut to it. */
const MAX_GUILD_NAME_LENGTH = 100;
/** Discord's icon hashes: 32 hex digits, `a_` in front for an animated icon. */
const GUILD_ICON_HASH = /^(a_)?[0-9a-f]{32}$/;

/** What a leaderboard's server header reads of a guild object; the rest of Discord's fields are ignored. */
const discordGuildAnswer = z.object({
  id: z.string(),
  name: z.string().transform((name) => [...name].slice(0, MAX_GUILD_NAME_LENGTH).join('')),
  icon: z.string().regex(GUILD_ICON_HASH).nullish().catch(undefined),
  approximate_member_count: z.number().int().min(0).max(1e9).optional().catch(undefined),
});

/** The server fields a leaderboard's header draws. */
export type DiscordGuild = z.output<typeof discordGuildAnswer>;

type DiscordUserApiOptions = Required<Pick<DiscordProfilesOptions, 'token' | 'apiBaseUrl' | 'userAgent' | 'requestTimeoutMs' | 'maxRetryWaitMs' | 'logger'>> & {
  gate: RateLimitGate;
};

type Answer = { status: number; headers: Headers; body: unknown };

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/** `GET /users/{id}`, `GET /guilds/{guild.id}/members/{user.id}` and `GET /guilds/{guild.id}` with the bot token, a deadline per call, rate limits and a typed error table. */
export function createDiscordUserApi(options: DiscordUserApiOptions) {
  const { logger, gate } = options;
  const base = options.apiBaseUrl.replace(/\/+$/, '');
  const headers = { authorization: `Bot ${options.token}`, 'user-agent': options.userAgent, accept: 'application/json' };
  let requests = 0;

  /** One HTTP exchange, body included, under the deadline; failures to talk at all are 503s. */
  async function exchange(path: string, userId: string): Promise<Answer> {
    requests += 1;
    try {
      const response = await fetch(`${base}${path}`, { headers, redirect: 'error', signal: AbortSignal.timeout(options.requestTimeoutMs) });
      const text = await readBodyText(response);
      return { status: response.status, headers: response.headers, body: parseJsonOrUndefined(text) };
    } catch (error) {
      if (error instanceof OversizedBodyError) {
        logger.warn({ userId }, 'Discord sent an oversized body');
        throw new DiscordUnavailableError(502, 'Discord sent an unreadable answer');
      }
      if (isTimeout(error)) {
        logger.warn({ userId, timeoutMs: options.requestTimeoutMs }, 'Discord API call timed out');
        throw new DiscordUnavailableError(503, 'Discord did not answer in time', { cause: error });
      }
      logger.warn({ userId, err: error }, 'Discord API could not be reached');
      throw new DiscordUnavailableError(503, 'Discord could not be reached', { cause: error });
    }
  }

  function misconfigured(status: number, userId: string, hint: string): DiscordUnavailableError {
    // Loud: every card fails until an operator fixes the configuration.
    logger.error({ status, userId }, `Discord refused our request: ${hint}`);
    return new DiscordUnavailableError(502, 'the Discord integration is misconfigured');
  }

  function userFrom(answer: Answer, userId: string): DiscordUser {
    const parsed = discordUserSchema.safeParse(answer.body);
    if (!parsed.success || parsed.data.id !== userId) {
      logger.warn({ userId, issues: parsed.success ? 'id mismatch' : parsed.error.issues.slice(0, 5) }, 'Discord sent a user object we cannot use');
      throw new DiscordUnavailableError(502, 'Discord sent an unreadable answer');
    }
    return parsed.data;
  }

  function failure(answer: Answer, userId: string): Error {
    const { status } = answer;
    if (status === 404) {
      const code = errorBody.safeParse(answer.body).data?.code;
      // Discord's own 404 for a route that does not exist has code 0: that is our base URL.
      if (code !== undefined && code !== UNKNOWN_USER_CODE) return misconfigured(status, userId, `not found (code ${code}); check the API base URL`);
      return new UnknownUserError(userId);
    }
    if (status === 401) return misconfigured(status, userId, 'the bot token is invalid or revoked');
    if (status === 403) return misconfigured(status, userId, 'the bot token may not read users');
    if (status === 503) {
      const retryAfter = Number(answer.headers.get('retry-after') ?? Number.NaN);
      logger.warn({ status, userId }, 'Discord is unavailable');
      return new DiscordUnavailableError(503, 'Discord is unavailable', Number.isFinite(retryAfter) && retryAfter >= 0 ? { retryAfterSeconds: Math.ceil(retryAfter) } : {});
    }
    if (status >= 500) {
      logger.warn({ status, userId }, 'Discord answered with a server error');
      return new DiscordUnavailableError(502, 'Discord answered with an error');
    }
    return misconfigured(status, userId, `unexpected status ${status}`);
  }

  /** One answer other than a 429: at most two HTTP calls (the second only after a short 429). */
  async function call(path: string, userId: string): Promise<Answer> {
    for (let attempt = 1; ; attempt += 1) {
      await gate.waitForTurn(options.maxRetryWaitMs);
      const answer = await exchange(path, userId);
      if (answer.status === 429) {
        const limit = readRateLimitAnswer(answer.headers, answer.body);
        if (limit.global) gate.pauseGlobally(limit.retryAfterMs);
        else gate.pauseRoute(limit.retryAfterMs);
        logger.warn({ userId, attempt, retryAfterMs: limit.retryAfterMs, global: limit.global }, 'Discord rate limited us');
        // The gate does the waiting on the next round, together with every other caller.
        if (attempt === 1 && limit.retryAfterMs <= options.maxRetryWaitMs) continue;
        throw new DiscordUnavailableError(503, 'Discord is rate limiting us; try again later', { retryAfterSeconds: Math.max(1, Math.ceil(limit.retryAfterMs / 1000)) });
      }
      const bucketWaitMs = exhaustedBucketWaitMs(answer.headers);
      if (bucketWaitMs !== undefined) gate.pauseRoute(bucketWaitMs);
      return answer;
    }
  }

  /**
   * The colours of the member's top coloured role (the highest `position` with a colour), from the
   * server's roles (`GET /guilds/{id}/roles`), as Discord colours a name. The roles are decoration:
   * when they cannot be read the card draws the default name colour, never an error.
   */
  async function fetchRoleColors(guildId: string, userId: string, memberRoles: readonly string[]): Promise<DiscordRoleColorsObject | undefined> {
    let answer: Answer;
    try {
      answer = await call(`/guilds/${guildId}/roles`, userId);
    } catch (error) {
      logger.warn({ userId, guildId, reason: error instanceof Error ? error.message : 'unknown error' }, 'server roles could not be read: the name keeps its default colour');
      return undefined;
    }
    if (answer.status < 200 || answer.status >= 300 || !Array.isArray(answer.body)) return undefined;
    const held = new Set(memberRoles);
    let top: { position: number; colors: DiscordRoleColorsObject } | undefined;
    // At most Discord's 250 roles of a server are looked at; each one that does not parse is skipped.
    for (const raw of answer.body.slice(0, 250)) {
      const role = discordRoleSchema.safeParse(raw);
      if (!role.success || !held.has(role.data.id)) continue;
      const colors: DiscordRoleColorsObject | undefined = role.data.colors ?? (role.data.color ? { primary_color: role.data.color } : undefined);
      if (!colors || colors.primary_color === 0) continue;
      if (top === undefined || role.data.position > top.position) top = { position: role.data.position, colors };
    }
    return top?.colors;
  }

  return {
    /**
     * A server's name, icon hash and approximate member count (`GET /guilds/{id}?with_counts=true`),
     * read leniently: the name is cut to Discord's 100 characters, an icon hash or count that is
     * not one is left out. A server the bot is not in or cannot see (403, 404) is `undefined`;
     * other failures throw as for users (DiscordUnavailableError).
     */
    async fetchGuild(guildId: string): Promise<DiscordGuild | undefined> {
      const answer = await call(`/guilds/${guildId}?with_counts=true`, guildId);
      if (answer.status === 403 || answer.status === 404) {
        logger.debug({ guildId, status: answer.status }, 'server not readable by the bot: the leaderboard header uses the fields given');
        return undefined;
      }
      if (answer.status < 200 || answer.status >= 300) throw failure(answer, guildId);
      const parsed = discordGuildAnswer.safeParse(answer.body);
      if (!parsed.success || parsed.data.id !== guildId) {
        logger.warn({ guildId, issues: parsed.success ? 'id mismatch' : parsed.error.issues.slice(0, 5) }, 'Discord sent a server object we cannot use');
        throw new DiscordUnavailableError(502, 'Discord sent an unreadable answer');
      }
      return parsed.data;
    },
    /** One user object, validated. */
    async fetchUser(userId: string): Promise<DiscordUser> {
      const answer = await call(`/users/${userId}`, userId);
      if (answer.status >= 200 && answer.status < 300) return userFrom(answer, userId);
      throw failure(answer, userId);
    },
    /**
     * The member's server nickname and avatar. A server the bot is not in or cannot see (403
     * Missing Access, 404 Unknown Guild) and a user who is not a member (404 Unknown Member or
     * Unknown User) are no error: the card falls back to the user's own name and avatar, and
     * whether the user exists at all is the user lookup's to say. Other failures are as for users.
     */
    async fetchMember(guildId: string, userId: string): Promise<DiscordMember> {
      const answer = await call(`/guilds/${guildId}/members/${userId}`, userId);
      if (answer.status === 403 || answer.status === 404) {
        logger.debug({ userId, guildId, status: answer.status }, 'no server data for this member: the card uses the user\'s own');
        return { nick: null, avatar: null };
      }
      if (answer.status < 200 || answer.status >= 300) throw failure(answer, userId);
      const parsed = discordMemberSchema.safeParse(answer.body);
      if (!parsed.success) {
        logger.warn({ userId, guildId, issues: parsed.error.issues.slice(0, 5) }, 'Discord sent a member object we cannot use');
        throw new DiscordUnavailableError(502, 'Discord sent an unreadable answer');
      }
      const { nick, avatar, banner, avatar_decoration_data, collectibles, roles } = parsed.data;
      const member: DiscordMember = { nick: nick ?? null, avatar: avatar ?? null };
      if (banner) member.banner = banner;
      if (avatar_decoration_data) member.avatar_decoration_data = avatar_decoration_data;
      if (collectibles) member.collectibles = collectibles;
      const roleColors = roles && roles.length > 0 ? await fetchRoleColors(guildId, userId, roles) : undefined;
      if (roleColors) member.role_colors = roleColors;
      return member;
    },
    /** HTTP requests sent to Discord so far, retries included. */
    get requests() {
      return requests;
    },
  };
}

/** Discord's user objects and error bodies are a few hundred bytes; anything near this is not one. */
const MAX_API_BODY_BYTES = 256 * 1024;

class OversizedBodyError extends Error {
  override readonly name = 'OversizedBodyError';
}

/** The body as text, refusing to buffer more than MAX_API_BODY_BYTES whatever Content-Length claimed. */
async function readBodyText(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > MAX_API_BODY_BYTES) {
    await response.body?.cancel();
    throw new OversizedBodyError(`body of ${declared} bytes is over ${MAX_API_BODY_BYTES}`);
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let length = 0;
  // Node types fetch bodies as streams of `any`; they carry bytes.
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > MAX_API_BODY_BYTES) {
      await reader.cancel();
      throw new OversizedBodyError(`body is over ${MAX_API_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, length).toString('utf8');
}

/** JSON, or `undefined` for an empty or non-JSON body (an HTML error page from a proxy, say). */
function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
