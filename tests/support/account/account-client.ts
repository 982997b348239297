import { openSqliteAccountStore } from '../../../services/gateway/src/accounts/sqlite-account-store.ts';
import type { AccountStore } from '../../../services/gateway/src/accounts/account-store.ts';
import { OWNER_ACCOUNT_ID } from '../../../services/gateway/src/auth/api-keys.ts';
import { createSignInLink } from '../../../services/gateway/src/accounts/sign-in-links.ts';

/**
 * A browser as the account area sees one, over raw HTTP: a cookie jar (what Set-Cookie said,
 * including deletions), the Origin a page of the gateway sends, and the session's CSRF token once
 * signed in. Redirects are not followed, so tests see each step.
 */
export class AccountClient {
  readonly cookies = new Map<string, string>();
  /** Every Set-Cookie header received, as sent. */
  readonly setCookies: string[] = [];
  csrfToken: string | undefined;
  readonly baseUrl: string;
  /** What the page's Origin header says: the gateway's public origin unless a test says another. */
  readonly origin: string;

  constructor(baseUrl: string, origin: string = new URL(baseUrl).origin) {
    this.baseUrl = baseUrl;
    this.origin = origin;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (!headers.has('cookie') && this.cookies.size > 0) headers.set('cookie', this.cookieHeader());
    const url = path.startsWith('http') ? path : `${this.baseUrl}${path}`;
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      this.setCookies.push(line);
      const [pair = ''] = line.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      if (/Max-Age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  async json(path: string, init: RequestInit = {}): Promise<{ status: number; body: any; response: Response }> {
    const response = await this.request(path, init);
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text), response };
  }

  /** A POST as the area's pages send it: JSON, same Origin, the CSRF token (unless told otherwise). */
  async post(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; response: Response }> {
    return this.json(path, {
      method: 'POST',
      headers: {
        origin: this.origin,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.csrfToken ? { 'x-csrf-token': this.csrfToken } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  /** Redeems a one-time link's token as the sign-in page does, then reads the CSRF token. */
  async signInWithToken(token: string): Promise<{ status: number; body: any; response: Response }> {
    const answer = await this.post('/account/api/sign-in/link', { token });
    if (answer.status === 200) await this.refreshCsrf();
    return answer;
  }

  async refreshCsrf(): Promise<void> {
    const me = await this.json('/account/api/me');
    if (me.status !== 200) throw new Error(`/account/api/me answered ${me.status}: ${JSON.stringify(me.body)}`);
    this.csrfToken = me.body.csrfToken;
  }

  /**
   * "Sign in with Discord" as a browser does it: start, follow the authorize redirect to the fake
   * (which answers at once), then follow its redirect back to our callback. The callback's answer.
   */
  async signInWithDiscord(): Promise<Response> {
    const start = await this.request('/account/sign-in/discord');
    if (start.status !== 303) throw new Error(`sign-in start answered ${start.status}`);
    const atDiscord = await this.request(start.headers.get('location')!);
    if (atDiscord.status !== 302) throw new Error(`the fake's authorize answered ${atDiscord.status}: ${await atDiscord.text()}`);
    const callback = await this.request(atDiscord.headers.get('location')!);
    if (callback.headers.get('location') === '/account') await this.refreshCsrf();
    return callback;
  }
}

/** The token of a one-time link (what follows `#token=`). */
export function linkToken(url: string): string {
  return new URL(url).hash.replace(/^#token=/, '');
}

/** A second handle on a test gateway's SQLite store (WAL: both may read and write at once). */
export function openTestStore(databasePath: string): AccountStore {
  return openSqliteAccountStore({ path: databasePath });
}

/** A fresh one-time link for the local owner, as `./run start` or the CLI would print. */
export async function ownerLinkToken(store: AccountStore, baseUrl: string): Promise<string> {
  return linkToken((await createSignInLink(store, { accountId: OWNER_ACCOUNT_ID, baseUrl, now: new Date() })).url);
}
