import { randomBytes, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@utility-api/infra';
import { ApiError } from '../http/api-error.ts';
import type { GuardStep } from '../http/request-pipeline.ts';
import { clientAddressKey, type RateLimits } from './rate-limits.ts';
import { OWNER_ACCOUNT_ID } from './api-keys.ts';
import { apiKeyId, hashApiKey, keyIdFromReference, managedKeyId, type ApiKeyIdentity, type ApiKeyRecord } from './api-keys.ts';
import type { ApiKeyRecords, KeyRecordsSnapshot } from './key-records.ts';

interface KnownKey {
  hash: Buffer;
  revoked: boolean;
  identity: ApiKeyIdentity;
  /** After a roll, the old secret and when it stops working (epoch ms). */
  previous?: { hash: Buffer; expiresAtMs: number };
}

/**
 * How often each gateway asks whether any key changed. A revocation is honoured by every gateway
 * within one interval plus one reload (well under a second); the question costs one Redis GET or
 * one indexed SQLite read.
 */
const KEY_POLL_INTERVAL_MS = 250;
/** How long an unknown key waits for the store before it is refused: a slow Redis must not hold requests. */
export const MISS_WAIT_MS = 300;

interface ApiKeyVerifierOptions {
  /** `API_KEYS`: not revocable by the CLI, removed by changing the variable and restarting. */
  bootstrapKeys: readonly string[];
  /** The managed keys of `./run keys`. */
  records: ApiKeyRecords;
  logger: Logger;
  /** With no key at all, generate one valid for this process only and log it, so a fresh checkout has a working API. */
  generateWhenEmpty?: boolean;
  pollIntervalMs?: number;
}

/**
 * Checks a presented key with one SHA-256, never a round trip. The bootstrap keys are compared
 * against every stored hash with `timingSafeEqual`, without stopping at a match, so the time taken
 * says nothing about which one matched. Managed keys are an in-memory map from id to hash: the id
 * in the key finds its record, the hash must match. The map is replaced whenever the store's
 * version changes, which is polled in the background and also checked when a well-formed key is
 * not in the map (so a key created a moment ago works at once). When the store is unreachable the
 * last map stays in use: keys keep working through a Redis outage, and nobody can revoke one then.
 */
export class ApiKeyVerifier {
  readonly #records: ApiKeyRecords;
  readonly #logger: Logger;
  #bootstrap: readonly KnownKey[] = [];
  #managed = new Map<string, KnownKey>();
  #version: string | undefined;
  #refreshing: Promise<void> | undefined;
  #nextRefresh: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #failing = false;
  /**
   * Keys this gateway revoked itself (the account area) that no snapshot has shown revoked yet: a
   * reload that read the store just before the revocation must not bring them back. Each leaves
   * the set once a snapshot agrees, so it holds at most the revocations of one poll interval.
   */
  readonly #revokedHere = new Set<string>();
  /** The key made for this run when there was none at all (`generateWhenEmpty`), for the start-up summary. */
  generatedKey: string | undefined;

  private constructor(records: ApiKeyRecords, logger: Logger) {
    this.#records = records;
    this.#logger = logger;
  }

  /** Loads every record (a failure here fails the boot: better no gateway than one without its keys). */
  static async open(options: ApiKeyVerifierOptions): Promise<ApiKeyVerifier> {
    const verifier = new ApiKeyVerifier(options.records, options.logger);
    verifier.#apply(await options.records.snapshot());
    let bootstrapKeys = options.bootstrapKeys;
    if (options.generateWhenEmpty && bootstrapKeys.length === 0 && verifier.activeCount === 0) {
      const generated = `dev_${randomBytes(24).toString('base64url')}`;
      bootstrapKeys = [generated];
      verifier.generatedKey = generated;
      options.logger.warn(`API_KEYS is not set: generated a key for this run only: ${generated}`);
    }
    verifier.#bootstrap = bootstrapKeys.map((key, index) => {
      const hash = hashApiKey(key);
      return { hash, revoked: false, identity: { id: apiKeyId(hash), name: `API_KEYS[${index}]`, accountId: OWNER_ACCOUNT_ID } };
    });
    // A poll that finds a reload still running (a slow store) skips its turn instead of queueing.
    verifier.#timer = setInterval(() => {
      if (!verifier.#refreshing) void verifier.refresh();
    }, options.pollIntervalMs ?? KEY_POLL_INTERVAL_MS);
    verifier.#timer.unref();
    return verifier;
  }

  /** The keys from `API_KEYS` (or the one made for this run), by public id and name, for the owner's account area. */
  get startupKeys(): { id: string; name: string; generated: boolean }[] {
    return this.#bootstrap.map((key) => ({ id: key.identity.id, name: key.identity.name, generated: this.generatedKey !== undefined }));
  }

  get bootstrapCount(): number {
    return this.#bootstrap.length;
  }

  /** Managed keys that are not revoked. */
  get activeCount(): number {
    let count = 0;
    for (const key of this.#managed.values()) if (!key.revoked) count += 1;
    return count;
  }

  get backend(): ApiKeyRecords['kind'] {
    return this.#records.kind;
  }

  close(): void {
    clearInterval(this.#timer);
  }

  /**
   * A key revoked through this gateway (the account area), refused by it from now on: called after
   * the store has recorded the revocation and before the answer says "revoked", so no request that
   * follows the answer is served with it here. Other gateways learn it from their next poll.
   */
  revokedHere(id: string): void {
    this.#revokedHere.add(id);
    const known = this.#managed.get(id);
    if (known) known.revoked = true;
  }

  /**
   * The key's identity, or undefined when it is not a valid key. Decided from memory whenever it
   * can be (a bootstrap key, a managed key whose record is loaded and whose secret matches, a key
   * that is not a managed key's shape): then the answer is a plain value, with no promise or
   * microtask in the request's path. Only when the store must be asked is it a promise.
   */
  verify(presentedKey: string): ApiKeyIdentity | undefined | Promise<ApiKeyIdentity | undefined> {
    const presented = hashApiKey(presentedKey);
    let match: ApiKeyIdentity | undefined;
    for (const key of this.#bootstrap) if (timingSafeEqual(key.hash, presented)) match = key.identity;
    if (match) return match;
    const id = managedKeyId(presentedKey);
    if (id === undefined) return undefined;
    const known = this.#managed.get(id);
    if (known && !known.revoked && matches(known, presented)) return known.identity;
    if (known?.revoked) return undefined;
    return this.#verifyAfterReload(id, presented, known === undefined);
  }

  /** The same checks, with the store asked first: `verify` found no loaded record that decides the key. */
  async #verifyAfterReload(id: string, presented: Buffer, unknownId: boolean): Promise<ApiKeyIdentity | undefined> {
    if (unknownId) {
      await this.#reloadWithin();
      const known = this.#managed.get(id);
      if (!known || known.revoked) return undefined;
      if (matches(known, presented)) return known.identity;
    }
    // A secret rolled a moment ago is not in the map yet: like an unknown id, ask the store once
    // (a version read; failed keys are limited per address, so guessing cannot turn this into load).
    await this.#reloadWithin();
    const reloaded = this.#managed.get(id);
    return reloaded && !reloaded.revoked && matches(reloaded, presented) ? reloaded.identity : undefined;
  }

  /** A reload, waited for at most MISS_WAIT_MS: a slow store must not hold requests. */
  #reloadWithin(): Promise<void> {
    return Promise.race([this.refresh(), sleep(MISS_WAIT_MS, undefined, { ref: false })]);
  }

  /**
   * What checks a signed card link naming the key's public id (`uk_live_<id>`, or `key_<hash>` for
   * a bootstrap key): the key's identity, whether it is revoked, and the SHA-256 hashes a link may
   * be signed with (a rolled key's old one too, until its grace period ends). Undefined for an id
   * no key has. A managed id not known here asks the store once, as `verify` does.
   */
  async linkSigner(publicId: string): Promise<{ identity: ApiKeyIdentity; revoked: boolean; signingKeys: Buffer[] } | undefined> {
    for (const key of this.#bootstrap) if (key.identity.id === publicId) return { identity: key.identity, revoked: false, signingKeys: [key.hash] };
    const id = keyIdFromReference(publicId);
    if (id === undefined || !publicId.startsWith('uk_live_')) return undefined;
    if (!this.#managed.has(id)) await Promise.race([this.refresh(), sleep(MISS_WAIT_MS, undefined, { ref: false })]);
    const known = this.#managed.get(id);
    if (!known) return undefined;
    const signingKeys = [known.hash, ...(known.previous && Date.now() < known.previous.expiresAtMs ? [known.previous.hash] : [])];
    return { identity: known.identity, revoked: known.revoked, signingKeys };
  }

  /**
   * Reloads when the store's version moved. A reload already running may have read the store
   * before the caller's change, so callers then wait for the next one, which all of them share: at
   * most one reload runs and one waits, however many requests ask while Redis is slow.
   */
  refresh(): Promise<void> {
    if (!this.#refreshing) return this.#startReload();
    this.#nextRefresh ??= this.#refreshing.then(() => {
      this.#nextRefresh = undefined;
      return this.#startReload();
    });
    return this.#nextRefresh;
  }

  #startReload(): Promise<void> {
    const running: Promise<void> = this.#reload().finally(() => {
      if (this.#refreshing === running) this.#refreshing = undefined;
    });
    this.#refreshing = running;
    return running;
  }

  async #reload(): Promise<void> {
    try {
      if ((await this.#records.version()) !== this.#version) this.#apply(await this.#records.snapshot());
      if (this.#failing) this.#logger.info({ store: this.#records.location }, 'api keys: store reachable again');
      this.#failing = false;
    } catch (error) {
      // Reported once per outage: the poll runs four times a second.
      if (!this.#failing) this.#logger.warn({ err: error, store: this.#records.location }, 'api keys: store unreachable, keeping the last known keys');
      this.#failing = true;
    }
  }

  #apply(snapshot: KeyRecordsSnapshot): void {
    for (const record of snapshot.records) if (record.revokedAt !== null) this.#revokedHere.delete(record.id);
    this.#managed = new Map(snapshot.records.map((record: ApiKeyRecord) => [record.id, {
      hash: Buffer.from(record.hash, 'hex'),
      revoked: record.revokedAt !== null || this.#revokedHere.has(record.id),
      identity: {
        id: record.prefix,
        name: record.name,
        accountId: record.accountId ?? OWNER_ACCOUNT_ID,
        ...(record.limits ? { limits: record.limits } : {}),
        ...(record.scopes ? { scopes: record.scopes } : {}),
      },
      ...(record.previousHash && record.previousExpiresAt ? { previous: { hash: Buffer.from(record.previousHash, 'hex'), expiresAtMs: Date.parse(record.previousExpiresAt) } } : {}),
    }]));
    this.#version = snapshot.version;
  }
}

/**
 * The id only finds the record; the secret part is what must match, in constant time. A rolled
 * key's old secret works until its grace period ends (both compared, whichever matches).
 */
function matches(key: KnownKey, presented: Buffer): boolean {
  const current = timingSafeEqual(presented, key.hash);
  const previous = key.previous !== undefined && timingSafeEqual(presented, key.previous.hash) && Date.now() < key.previous.expiresAtMs;
  return current || previous;
}

const CHALLENGE = 'Bearer realm="utility-api"';
/** Longer values are refused before hashing: no key is that long and hashing megabytes costs. */
const MAX_KEY_LENGTH = 256;

function unauthorized(message: string, error?: 'invalid_token'): ApiError {
  return new ApiError('unauthorized', message, {
    headers: { 'WWW-Authenticate': error ? `${CHALLENGE}, error="${error}"` : CHALLENGE },
  });
}

function tooManyFailures(retryAfterMs: number): ApiError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new ApiError('rate_limited', `Too many failed authentication attempts from your address; retry in ${seconds} s.`, { retryAfterSeconds: seconds });
}

/** The key is the whole header value, or follows a `Bearer` scheme; nothing else is read. */
export function presentedApiKey(header: string): string | undefined {
  // HTTP's optional whitespace is spaces and tabs only: `String.trim` would also drop a no-break
  // space (U+00A0) and accept `<key>\u00A0` as the key.
  const value = header.replace(/^[ \t]+|[ \t]+$/g, '');
  if (value === '') return undefined;
  const bearer = /^bearer[ \t]+([\x21-\x7E]+)$/i.exec(value);
  if (bearer) return bearer[1];
  // A key is printable ASCII without spaces (what `API_KEYS` and `keys create` make).
  return /^[\x21-\x7E]+$/.test(value) ? value : undefined;
}

/**
 * Requires `Authorization: <key>` or `Authorization: Bearer <key>`. A key in the query string is
 * never read, so it cannot leak through URLs into logs, proxies or browser history.
 *
 * With limits, an address that sent too many wrong or malformed keys gets a 429 before its key is
 * even looked at, and the failure that crosses the limit is a 429 too. Only requests that present
 * a credential count: a missing header guesses nothing.
 */
export function authenticate(keys: ApiKeyVerifier, limits: RateLimits | undefined): GuardStep {
  return async (ctx, next) => {
    // The client's address is worked out only when some address is blocked, or this key failed.
    if (limits?.blocksAnyAddress) {
      const blockedMs = limits.authBlockedFor(clientAddressKey(ctx.ip));
      if (blockedMs > 0) throw tooManyFailures(blockedMs);
    }
    // Node keeps the first of repeated Authorization headers, as `ctx.get` would read it.
    const header = ctx.req.headers.authorization ?? '';
    if (header === '') throw unauthorized('Missing API key: send it in the Authorization header (Authorization: <key>).');
    const key = presentedApiKey(header);
    const wellFormed = key !== undefined && key.length <= MAX_KEY_LENGTH;
    const verified = wellFormed ? keys.verify(key) : undefined;
    // A key decided from memory (the usual case) costs no await.
    const identity = verified instanceof Promise ? await verified : verified;
    if (!identity) {
      const waitMs = limits ? await limits.recordAuthFailure(clientAddressKey(ctx.ip)) : 0;
      if (waitMs > 0) throw tooManyFailures(waitMs);
      const message = wellFormed ? 'Invalid API key.' : 'Malformed Authorization header: send "Authorization: <key>" or "Authorization: Bearer <key>".';
      throw unauthorized(message, 'invalid_token');
    }
    // From here on the request's log lines carry the key id too.
    ctx.state.apiKey = identity;
    return next(ctx);
  };
}
