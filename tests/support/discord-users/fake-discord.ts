/**
 * A fake Discord on loopback: the REST API's `GET /api/v10/users/{id}` and
 * `GET /api/v10/guilds/{guild.id}/members/{user.id}`, and the CDN, on two servers
 * (two origins, as in production). Users come from fixtures; a test can script the answers for one
 * user id (429s, 500s, a hang) and reads back every request each server received.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** `performance.now()` when the request arrived. */
  at: number;
}

/** Answers one API request; `call` counts this user's requests from 1. */
export type ScriptedAnswer = (response: ServerResponse, call: number) => void;

export interface FakeDiscord {
  apiBaseUrl: string;
  cdnBaseUrl: string;
  users: Map<string, Record<string, unknown>>;
  /**
   * Servers the bot is in: guild id → member objects by user id. A guild not listed is Discord's
   * 404 Unknown Guild, one in `hiddenGuilds` its 403 Missing Access, a user not listed 404 Unknown Member.
   */
  guilds: Map<string, Map<string, Record<string, unknown>>>;
  hiddenGuilds: Set<string>;
  /** `GET /guilds/{id}/roles` of a server (404 Unknown Guild when not set). */
  guildRoles: Map<string, Record<string, unknown>[]>;
  memberRequests(guildId: string, userId: string): RecordedRequest[];
  /**
   * `GET /guilds/{id}` (a leaderboard's server header): guild id → the guild object sent (404
   * Unknown Guild when not set, 403 in `hiddenGuilds`). `approximate_member_count` is sent only when
   * asked for with `?with_counts=true`, as Discord does.
   */
  guildObjects: Map<string, Record<string, unknown>>;
  /** Guild id → a scripted answer to `GET /guilds/{id}` (a 500, a hang, a huge body), before `guildObjects`. */
  guildScripts: Map<string, (response: ServerResponse) => void>;
  guildRequests(guildId: string): RecordedRequest[];
  /** CDN path (e.g. `/avatars/1/abc.png`) → bytes; anything else is a CDN 404. */
  images: Map<string, Buffer>;
  /** CDN path → a scripted answer (a 500, a hang), before `images` is looked at. */
  cdnScripts: Map<string, (response: ServerResponse) => void>;
  script(userId: string, answer: ScriptedAnswer): void;
  apiRequestsFor(userId: string): RecordedRequest[];
  cdnRequests(): RecordedRequest[];
  close(): Promise<void>;
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function record(request: IncomingMessage): RecordedRequest {
  return { method: request.method ?? '', path: request.url ?? '', headers: request.headers, at: performance.now() };
}

export async function startFakeDiscord(): Promise<FakeDiscord> {
  const users = new Map<string, Record<string, unknown>>();
  const images = new Map<string, Buffer>();
  const cdnScripts = new Map<string, (response: ServerResponse) => void>();
  const guilds = new Map<string, Map<string, Record<string, unknown>>>();
  const hiddenGuilds = new Set<string>();
  const guildRoles = new Map<string, Record<string, unknown>[]>();
  const guildObjects = new Map<string, Record<string, unknown>>();
  const guildScripts = new Map<string, (response: ServerResponse) => void>();
  const scripts = new Map<string, ScriptedAnswer>();
  const apiRequests: RecordedRequest[] = [];
  const cdnRequests: RecordedRequest[] = [];
  const hanging = new Set<ServerResponse>();

  const api = createServer((request, response) => {
    const recorded = record(request);
    apiRequests.push(recorded);
    const rolesMatch = /^\/api\/v10\/guilds\/([^/?]+)\/roles$/.exec(recorded.path);
    if (request.method === 'GET' && rolesMatch) {
      const roles = guildRoles.get(decodeURIComponent(rolesMatch[1] ?? ''));
      return roles ? sendJson(response, 200, roles) : sendJson(response, 404, { message: 'Unknown Guild', code: 10004 });
    }
    const guildMatch = /^\/api\/v10\/guilds\/([^/?]+)(\?.*)?$/.exec(recorded.path);
    if (request.method === 'GET' && guildMatch) {
      const guildId = decodeURIComponent(guildMatch[1] ?? '');
      const scripted = guildScripts.get(guildId);
      if (scripted) {
        hanging.add(response);
        response.on('close', () => hanging.delete(response));
        return scripted(response);
      }
      if (hiddenGuilds.has(guildId)) return sendJson(response, 403, { message: 'Missing Access', code: 50001 });
      const guild = guildObjects.get(guildId);
      if (!guild) return sendJson(response, 404, { message: 'Unknown Guild', code: 10004 });
      const withCounts = new URLSearchParams(guildMatch[2] ?? '').get('with_counts') === 'true';
      const { approximate_member_count: count, ...fields } = guild;
      // As Discord sends it, with fields the header does not read.
      return sendJson(response, 200, { id: guildId, owner_id: '1', roles: [], emojis: [], features: ['COMMUNITY'], ...fields, ...(withCounts && count !== undefined && { approximate_member_count: count, approximate_presence_count: 1 }) });
    }
    const memberMatch = /^\/api\/v10\/guilds\/([^/?]+)\/members\/([^/?]+)$/.exec(recorded.path);
    if (request.method === 'GET' && memberMatch) {
      const [, guildId = '', userId = ''] = memberMatch.map(decodeURIComponent);
      if (hiddenGuilds.has(guildId)) return sendJson(response, 403, { message: 'Missing Access', code: 50001 });
      const members = guilds.get(guildId);
      if (!members) return sendJson(response, 404, { message: 'Unknown Guild', code: 10004 });
      const member = members.get(userId);
      if (!member) return sendJson(response, 404, { message: 'Unknown Member', code: 10007 });
      // As Discord sends it: the user inside, roles, dates; the card reads nick, avatar, banner, decoration, nameplate and roles.
      return sendJson(response, 200, { user: users.get(userId) ?? { id: userId }, roles: [], joined_at: '2024-01-01T00:00:00.000000+00:00', deaf: false, mute: false, ...member });
    }
    const match = /^\/api\/v10\/users\/([^/?]+)$/.exec(recorded.path);
    if (request.method !== 'GET' || !match) {
      sendJson(response, 404, { message: '404: Not Found', code: 0 });
      return;
    }
    const userId = decodeURIComponent(match[1] ?? '');
    const script = scripts.get(userId);
    if (script) {
      hanging.add(response);
      response.on('close', () => hanging.delete(response));
      script(response, apiRequests.filter((candidate) => candidate.path === recorded.path).length);
      return;
    }
    const user = users.get(userId);
    if (!user) {
      sendJson(response, 404, { message: 'Unknown User', code: 10013 });
      return;
    }
    // Fields we do not read must be ignored, as Discord adds new ones all the time.
    sendJson(response, 200, { ...user, discriminator: '0', clyde: false, some_future_field: { nested: [1, 2] } });
  });

  const cdn = createServer((request, response) => {
    const recorded = record(request);
    cdnRequests.push(recorded);
    const path = new URL(recorded.path, 'http://cdn.invalid').pathname;
    const scripted = cdnScripts.get(path);
    if (scripted) {
      hanging.add(response);
      response.on('close', () => hanging.delete(response));
      scripted(response);
      return;
    }
    const bytes = images.get(path);
    if (!bytes) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('404: Not Found');
      return;
    }
    response.writeHead(200, { 'content-type': 'image/png', 'content-length': bytes.length });
    response.end(bytes);
  });

  const [apiOrigin, cdnOrigin] = await Promise.all([listen(api), listen(cdn)]);
  return {
    apiBaseUrl: `${apiOrigin}/api/v10`,
    cdnBaseUrl: cdnOrigin,
    users,
    guilds,
    hiddenGuilds,
    guildRoles,
    guildObjects,
    guildScripts,
    guildRequests: (guildId) => apiRequests.filter((request) => new URL(request.path, 'http://api.invalid').pathname === `/api/v10/guilds/${guildId}`),
    memberRequests: (guildId, userId) => apiRequests.filter((request) => request.path === `/api/v10/guilds/${guildId}/members/${userId}`),
    images,
    cdnScripts,
    script: (userId, answer) => void scripts.set(userId, answer),
    apiRequestsFor: (userId) => apiRequests.filter((request) => request.path === `/api/v10/users/${userId}`),
    cdnRequests: () => [...cdnRequests],
    async close() {
      for (const response of hanging) response.destroy();
      api.closeAllConnections();
      cdn.closeAllConnections();
      await Promise.all([new Promise((resolve) => api.close(resolve)), new Promise((resolve) => cdn.close(resolve))]);
    },
  };
}
