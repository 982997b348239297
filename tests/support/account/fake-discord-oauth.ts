import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_CLIENT_ID = '123456789012345678';
export const FAKE_CLIENT_SECRET = 'fake-client-secret-0123456789';

export interface FakeDiscordUser {
  id: string;
  username: string;
  global_name: string | null;
}

interface IssuedCode {
  user: FakeDiscordUser;
  redirectUri: string;
  challenge: string;
}

/**
 * Discord's OAuth2 as far as the account area uses it, on a loopback port: the authorize page
 * (which "approves" at once as `user`, or denies when told to), the token endpoint and
 * `/users/@me`. It is as strict as the real one where it matters: the redirect URI must be the
 * registered one at both steps, a code works once, the PKCE verifier must hash to the challenge
 * (S256 only), and the client must authenticate with its secret. Every refusal is recorded.
 */
export class FakeDiscordOAuth {
  readonly #server: Server;
  readonly #codes = new Map<string, IssuedCode>();
  readonly #tokens = new Map<string, FakeDiscordUser>();
  /** Why each refused request was refused, in order. */
  readonly refusals: string[] = [];
  /** Token requests received (their form fields), in order. */
  readonly tokenRequests: Record<string, string>[] = [];
  /** The user the next approval signs in as. */
  user: FakeDiscordUser = { id: '111111111111111111', username: 'botmaker', global_name: 'Bot Maker' };
  /** The person clicks "Cancel" at Discord. */
  deny = false;
  /** The token endpoint answers 503 (Discord down). */
  down = false;
  url = '';
  redirectUri = '';

  private constructor() {
    this.#server = createServer((request, response) => {
      void this.#handle(request).then(
        ({ status, headers, body }) => {
          response.writeHead(status, { 'content-type': 'application/json', ...headers });
          response.end(body === undefined ? '' : JSON.stringify(body));
        },
        () => {
          response.writeHead(500);
          response.end();
        },
      );
    });
  }

  static async start(): Promise<FakeDiscordOAuth> {
    const fake = new FakeDiscordOAuth();
    fake.#server.listen(0, '127.0.0.1');
    await once(fake.#server, 'listening');
    fake.url = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  /** The gateway settings that point at this fake, for a gateway whose public URL is `baseUrl`. */
  env(baseUrl: string): Record<string, string> {
    this.redirectUri = `${baseUrl}/account/sign-in/discord/callback`;
    return {
      DISCORD_OAUTH_CLIENT_ID: FAKE_CLIENT_ID,
      DISCORD_OAUTH_CLIENT_SECRET: FAKE_CLIENT_SECRET,
      DISCORD_OAUTH_REDIRECT_URL: this.redirectUri,
      DISCORD_OAUTH_AUTHORIZE_URL: `${this.url}/oauth2/authorize`,
      DISCORD_OAUTH_TOKEN_URL: `${this.url}/api/oauth2/token`,
      DISCORD_OAUTH_API_BASE_URL: `${this.url}/api`,
    };
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  #refuse(reason: string, status = 400, error = 'invalid_request') {
    this.refusals.push(reason);
    return { status, headers: {}, body: { error, error_description: reason } };
  }

  async #handle(request: IncomingMessage): Promise<{ status: number; headers: Record<string, string>; body?: unknown }> {
    const url = new URL(request.url ?? '/', this.url);
    if (request.method === 'GET' && url.pathname === '/oauth2/authorize') return this.#authorize(url.searchParams);
    if (request.method === 'POST' && url.pathname === '/api/oauth2/token') {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      return this.#token(request, new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    }
    if (request.method === 'GET' && url.pathname === '/api/users/@me') {
      const user = this.#tokens.get((request.headers.authorization ?? '').replace(/^Bearer /, ''));
      return user ? { status: 200, headers: {}, body: { ...user, discriminator: '0', avatar: null } } : this.#refuse('unknown access token', 401, 'unauthorized');
    }
    return this.#refuse(`no route ${request.method} ${url.pathname}`, 404, 'not_found');
  }

  #authorize(query: URLSearchParams) {
    if (query.get('client_id') !== FAKE_CLIENT_ID) return this.#refuse('authorize: unknown client_id');
    if (query.get('redirect_uri') !== this.redirectUri) return this.#refuse('authorize: redirect_uri is not the registered one');
    if (query.get('response_type') !== 'code') return this.#refuse('authorize: response_type must be code');
    if (query.get('scope') !== 'identify') return this.#refuse(`authorize: scope ${query.get('scope')} (expected identify only)`);
    if (query.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(query.get('code_challenge') ?? '')) return this.#refuse('authorize: PKCE S256 challenge missing');
    const state = query.get('state') ?? '';
    if (state === '') return this.#refuse('authorize: no state');
    const back = new URL(this.redirectUri);
    if (this.deny) {
      back.search = new URLSearchParams({ error: 'access_denied', error_description: 'The resource owner or authorization server denied the request', state }).toString();
    } else {
      const code = randomBytes(15).toString('hex');
      this.#codes.set(code, { user: { ...this.user }, redirectUri: query.get('redirect_uri')!, challenge: query.get('code_challenge')! });
      back.search = new URLSearchParams({ code, state }).toString();
    }
    return { status: 302, headers: { location: back.toString() } };
  }

  #token(request: IncomingMessage, form: URLSearchParams) {
    this.tokenRequests.push(Object.fromEntries(form));
    if (this.down) return this.#refuse('token: down', 503, 'temporarily_unavailable');
    if ((request.headers['content-type'] ?? '').split(';')[0] !== 'application/x-www-form-urlencoded') return this.#refuse('token: body must be form-encoded');
    if (form.get('client_id') !== FAKE_CLIENT_ID || form.get('client_secret') !== FAKE_CLIENT_SECRET) return this.#refuse('token: client authentication failed', 401, 'invalid_client');
    if (form.get('grant_type') !== 'authorization_code') return this.#refuse('token: grant_type', 400, 'unsupported_grant_type');
    const code = form.get('code') ?? '';
    const issued = this.#codes.get(code);
    // A code is spent by its first exchange, successful or not (RFC 6749 §4.1.2).
    this.#codes.delete(code);
    if (!issued) return this.#refuse('token: unknown or used code', 400, 'invalid_grant');
    if (form.get('redirect_uri') !== issued.redirectUri) return this.#refuse('token: redirect_uri differs from the authorize request', 400, 'invalid_grant');
    const verifier = form.get('code_verifier') ?? '';
    if (createHash('sha256').update(verifier).digest('base64url') !== issued.challenge) return this.#refuse('token: code_verifier does not match the challenge', 400, 'invalid_grant');
    const accessToken = randomBytes(20).toString('hex');
    this.#tokens.set(accessToken, issued.user);
    return { status: 200, headers: {}, body: { access_token: accessToken, token_type: 'Bearer', expires_in: 604800, refresh_token: randomBytes(10).toString('hex'), scope: 'identify' } };
  }
}
