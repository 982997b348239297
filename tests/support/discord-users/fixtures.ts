/** Users, images and wiring shared by the discord-users tests. */
import {
  createDiscordProfiles,
  createMemoryProfileCache,
  type DiscordProfilesOptions,
} from '@utility-api/discord-users';
import { createLogger } from '@utility-api/infra';
import { createImageFetcher } from '@utility-api/safe-fetch';
import { solidPng } from '../../fixtures/images.ts';
import { type FakeDiscord } from './fake-discord.ts';

export const TOKEN = 'fake-bot-token.abc123';

let nextId = 200_000_000_000_000_000n;
/** A fresh snowflake per call: tests in a file run concurrently against one fake. */
export function newUserId(): string {
  nextId += 1n;
  return nextId.toString();
}

/**
 * The test's ImageFetcher: the renderer's own safe fetcher (which refuses non-images while they
 * stream in), allowed to reach the fake CDN on loopback.
 */
const loopbackFetcher = createImageFetcher({ allowPrivateHosts: ['127.0.0.1'] });

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** A real pino logger (as the gateway creates) writing into an array, to read what was logged. */
export function captureLogs() {
  const lines: LogLine[] = [];
  const logger = createLogger({
    service: 'discord-users-test',
    level: 'debug',
    destination: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
  });
  return { logger, lines, text: () => lines.map((line) => JSON.stringify(line)).join('\n') };
}

export const PINO_ERROR = 50;
export const PINO_WARN = 40;

/** Profiles wired to the fake with test-friendly limits; `overrides` replace any option. */
export function profilesFor(fake: FakeDiscord, overrides: Partial<DiscordProfilesOptions> = {}) {
  const logs = captureLogs();
  const profiles = createDiscordProfiles({
    token: TOKEN,
    apiBaseUrl: fake.apiBaseUrl,
    cdnBaseUrl: fake.cdnBaseUrl,
    fetcher: loopbackFetcher,
    cache: createMemoryProfileCache({ maxEntries: 100 }),
    profileTtlMs: 60_000,
    requestTimeoutMs: 2000,
    maxRetryWaitMs: 1000,
    logger: logs.logger,
    ...overrides,
  });
  return { profiles, logs };
}

/** Adds a user to the fake, with its avatar/banner/decoration PNGs on the fake CDN when it has them. */
export function addUser(fake: FakeDiscord, user: Record<string, unknown> & { id: string }): void {
  fake.users.set(user.id, user);
  if (typeof user.avatar === 'string') fake.images.set(`/avatars/${user.id}/${user.avatar}.png`, solidPng(8, 8, '#ff0000'));
  if (typeof user.banner === 'string') fake.images.set(`/banners/${user.id}/${user.banner}.png`, solidPng(8, 8, '#00ff00'));
  const decoration = user.avatar_decoration_data as { asset?: string } | null | undefined;
  if (decoration?.asset) fake.images.set(`/avatar-decoration-presets/${decoration.asset}.png`, solidPng(8, 8, '#0000ff'));
}

/** A plain user with an avatar, ready on the fake. */
export function addPlainUser(fake: FakeDiscord, fields: Record<string, unknown> = {}): string {
  const id = newUserId();
  addUser(fake, { id, username: `user${id.slice(-4)}`, global_name: null, avatar: '0123456789abcdef0123456789abcdef', ...fields });
  return id;
}
