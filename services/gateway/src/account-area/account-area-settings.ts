import { envUrl } from '@utility-api/infra';
import { z } from 'zod';

/** Where Discord's OAuth2 lives; only a test double needs other values. */
const DISCORD_AUTHORIZE_URL = 'https://discord.com/oauth2/authorize';
const DISCORD_TOKEN_URL = 'https://discord.com/api/oauth2/token';
const DISCORD_OAUTH_API_BASE_URL = 'https://discord.com/api/v10';

/** The one path the callback is served at; DISCORD_OAUTH_REDIRECT_URL must name it exactly. */
export const DISCORD_CALLBACK_PATH = '/account/sign-in/discord/callback';

const OAUTH_VARIABLES = ['DISCORD_OAUTH_CLIENT_ID', 'DISCORD_OAUTH_CLIENT_SECRET', 'DISCORD_OAUTH_REDIRECT_URL'] as const;

/** The account area's variables, for the gateway's environment schema. */
export const accountAreaEnvironmentShape = {
  /** Discord application's OAuth2 client (all three or none): "Sign in with Discord". */
  DISCORD_OAUTH_CLIENT_ID: z.string().regex(/^\d{17,20}$/, { error: 'must be the application id: 17-20 digits' }).optional(),
  DISCORD_OAUTH_CLIENT_SECRET: z.string().min(16, { error: 'must be at least 16 characters' }).max(256).optional(),
  DISCORD_OAUTH_REDIRECT_URL: envUrl(['http', 'https']).optional(),
  DISCORD_OAUTH_AUTHORIZE_URL: envUrl(['http', 'https']).default(DISCORD_AUTHORIZE_URL),
  DISCORD_OAUTH_TOKEN_URL: envUrl(['http', 'https']).default(DISCORD_TOKEN_URL),
  DISCORD_OAUTH_API_BASE_URL: envUrl(['http', 'https']).default(DISCORD_OAUTH_API_BASE_URL),
  /** Hours a rolled key's old secret keeps working (fractions allowed: 0.5 is half an hour). */
  KEY_ROLL_GRACE_HOURS: z
    .string()
    .regex(/^\d{1,3}(\.\d{1,6})?$/, { error: 'must be a number of hours from 0 to 720, such as 24 or 0.5' })
    .transform(Number)
    .pipe(z.number().max(720, { error: 'must be at most 720 (30 days)' }))
    .default(24),
};

type AccountAreaEnvironment = z.output<z.ZodObject<typeof accountAreaEnvironmentShape>>;

/**
 * OAuth is all or nothing: a client id without its secret would send people to Discord and fail on
 * their way back. All three missing names are reported together, and the redirect URL must be the
 * gateway's own callback path (Discord compares it exactly with the one registered).
 */
export function refineAccountAreaEnvironment(env: AccountAreaEnvironment, context: z.RefinementCtx): void {
  const missing = OAUTH_VARIABLES.filter((name) => env[name] === undefined);
  if (missing.length > 0 && missing.length < OAUTH_VARIABLES.length) {
    for (const name of missing) {
      context.addIssue({ code: 'custom', path: [name], message: `must be set with ${OAUTH_VARIABLES.filter((other) => other !== name).join(' and ')} (all three or none)` });
    }
  }
  if (env.DISCORD_OAUTH_REDIRECT_URL !== undefined) {
    const url = new URL(env.DISCORD_OAUTH_REDIRECT_URL);
    if (url.pathname !== DISCORD_CALLBACK_PATH || url.search !== '' || url.hash !== '') {
      context.addIssue({ code: 'custom', path: ['DISCORD_OAUTH_REDIRECT_URL'], message: `must be this gateway's public URL followed by ${DISCORD_CALLBACK_PATH}, with no query or fragment` });
    }
  }
}

export interface DiscordOAuthSettings {
  clientId: string;
  clientSecret: string;
  redirectUrl: string;
  authorizeUrl: string;
  tokenUrl: string;
  apiBaseUrl: string;
}

export interface AccountAreaSettings {
  /** Undefined: no "Sign in with Discord"; the owner signs in with the one-time link. */
  discord: DiscordOAuthSettings | undefined;
  keyRollGraceMs: number;
}

export function toAccountAreaSettings(env: AccountAreaEnvironment): AccountAreaSettings {
  const { DISCORD_OAUTH_CLIENT_ID: clientId, DISCORD_OAUTH_CLIENT_SECRET: clientSecret, DISCORD_OAUTH_REDIRECT_URL: redirectUrl } = env;
  return {
    discord:
      clientId !== undefined && clientSecret !== undefined && redirectUrl !== undefined
        ? {
            clientId,
            clientSecret,
            redirectUrl,
            authorizeUrl: env.DISCORD_OAUTH_AUTHORIZE_URL,
            tokenUrl: env.DISCORD_OAUTH_TOKEN_URL,
            apiBaseUrl: env.DISCORD_OAUTH_API_BASE_URL.replace(/\/+$/, ''),
          }
        : undefined,
    keyRollGraceMs: Math.round(env.KEY_ROLL_GRACE_HOURS * 3_600_000),
  };
}
