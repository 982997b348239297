import { parseArgs } from 'node:util';
import { ConfigurationError, parseEnvironment } from '@utility-api/infra';
import { createRedisConnection, type RedisClient } from '@utility-api/infra/redis';
import { KEY_NAME, keyIdFromReference, KeyStoreDataError, type ApiKeyRecord } from '../auth/api-keys.ts';
import type { AccountStore } from '../accounts/account-store.ts';
import { createApiKey, keysEnvironmentSchema, listApiKeys, openAccountStore } from '../auth/key-records.ts';
import { formatRateSpec, parseRateSpec, RATE_SPEC_FORMAT, type KeyRateLimits } from '../rate-limits/rate-spec.ts';

/** sysexits(3) codes, so scripts can tell a typo from an outage. */
const EXIT = { ok: 0, usage: 64, dataError: 65, noSuchKey: 66, unavailable: 69, software: 70, config: 78 } as const;

interface CliOutput {
  out: (line: string) => void;
  err: (line: string) => void;
}

class UsageError extends Error {}

const HELP = `Manage API keys: pnpm keys <command> [options]

Commands:
  create --name <name> [--rate <n>/<window>] [--image-rate <n>/<window>] [--json]
        Creates a key and prints it ONCE, with its id and prefix. Only its SHA-256 is stored.
        --rate        this key's budget for the light endpoints (default: RATE_LIMIT_DEFAULT)
        --image-rate  this key's budget for POST /v1/profile-image (default: RATE_LIMIT_PROFILE_IMAGE)
        Budgets are ${RATE_SPEC_FORMAT}.
  list [--json]
        Every managed key: id, name, prefix, created, revoked, limits. Never a key or a hash.
  revoke <id|prefix>
        Revokes a key (such as abcd1234 or uk_live_abcd1234); every gateway refuses it within a second.
  help  This text.

Where keys live (as the gateway decides): REDIS_URL or REDIS_CLUSTER_NODES set: that Redis;
otherwise the SQLite database DATABASE_PATH (default .data/utility-api.sqlite, relative to the
current folder), which imports an older keys file (KEYS_FILE, .data/api-keys.json) once.

Keys in API_KEYS are bootstrap keys: they work alongside managed keys but are not managed here;
remove one from API_KEYS and restart the gateway to retire it.

Exit codes: 0 done, 64 bad usage, 65 unreadable key data, 66 no such key, 69 store unreachable,
78 bad environment variable.`;

function rateOption(value: string | undefined, option: string) {
  if (value === undefined) return undefined;
  const spec = parseRateSpec(value);
  if (!spec) throw new UsageError(`${option} must be ${RATE_SPEC_FORMAT} (a window of 1 s to 1 day), not "${value}"`);
  return spec;
}

function limitsText(limits: KeyRateLimits | undefined): string {
  const parts = [
    limits?.default ? `rate ${formatRateSpec(limits.default)}` : undefined,
    limits?.profileImage ? `image-rate ${formatRateSpec(limits.profileImage)}` : undefined,
  ].filter((part) => part !== undefined);
  return parts.length > 0 ? parts.join(', ') : 'defaults';
}

/** What `list --json` shows of a record: everything but the hash. */
function publicView({ id, name, prefix, createdAt, revokedAt, limits }: ApiKeyRecord) {
  return { id, name, prefix, createdAt, revokedAt, limits: limits ?? {} };
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd());
}

/** `pnpm keys ...`; returns the exit code. */
export async function runKeysCli(argv: readonly string[], environment: Record<string, string | undefined>, output: CliOutput): Promise<number> {
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  const command = args[0];
  if (command === undefined || command === 'help' || command === '--help' || command === '-h' || args.includes('--help') || args.includes('-h')) {
    (command === undefined ? output.err : output.out)(HELP);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  try {
    const run = COMMANDS[command];
    if (!run) throw new UsageError(`unknown command "${command}"`);
    return await run(args.slice(1), environment, output);
  } catch (error) {
    if (error instanceof UsageError || (error instanceof TypeError && (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS'))) {
      output.err(`pnpm keys: ${error.message}\nRun "pnpm keys --help" for usage.`);
      return EXIT.usage;
    }
    output.err(`pnpm keys: ${error instanceof Error ? error.message : String(error)}`);
    if (error instanceof ConfigurationError) return EXIT.config;
    if (error instanceof StoreUnavailableError) return EXIT.unavailable;
    return error instanceof KeyStoreDataError ? EXIT.dataError : EXIT.software;
  }
}

type Command = (args: string[], environment: Record<string, string | undefined>, output: CliOutput) => Promise<number>;

const COMMANDS: Readonly<Record<string, Command>> = {
  async create(args, environment, output) {
    const { values, positionals } = parseArgs({
      args,
      options: { name: { type: 'string' }, rate: { type: 'string' }, 'image-rate': { type: 'string' }, json: { type: 'boolean' } },
      allowPositionals: true,
    });
    if (positionals.length > 0) throw new UsageError(`create takes no positional arguments (got "${positionals.join(' ')}"); use --name`);
    const name = values.name?.trim();
    if (!name) throw new UsageError('create needs --name <name>, such as --name my-bot');
    if (!KEY_NAME.test(name)) throw new UsageError('--name must be 1-64 letters, digits, spaces or . _ : @ / -');
    const rate = rateOption(values.rate, '--rate');
    const imageRate = rateOption(values['image-rate'], '--image-rate');
    const limits: KeyRateLimits = { ...(rate ? { default: rate } : {}), ...(imageRate ? { profileImage: imageRate } : {}) };

    return withKeyStore(environment, async (records) => {
      const { key, record } = await createApiKey(records, { name, limits, now: new Date() });
      if (values.json) {
        output.out(JSON.stringify({ key, ...publicView(record) }));
      } else {
        output.out(`Created key ${record.id} (${record.prefix}) named "${record.name}" in ${records.location}`);
        output.out(`Limits: ${limitsText(record.limits)}`);
        output.out('The key, shown this once (only its hash is stored; it cannot be shown again):');
        output.out('');
        output.out(`  ${key}`);
        output.out('');
      }
      return EXIT.ok;
    });
  },

  async list(args, environment, output) {
    const { values, positionals } = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: true });
    if (positionals.length > 0) throw new UsageError('list takes no arguments');
    return withKeyStore(environment, async (store) => {
      const records = await listApiKeys(store);
      if (values.json) {
        output.out(JSON.stringify(records.map(publicView)));
      } else if (records.length === 0) {
        output.out(`No managed keys in ${store.location}. Create one with: pnpm keys create --name <name>`);
      } else {
        const rows = records.map((record) => [record.id, record.prefix, record.name, record.createdAt, record.revokedAt ?? '-', limitsText(record.limits)]);
        for (const line of table([['ID', 'PREFIX', 'NAME', 'CREATED', 'REVOKED', 'LIMITS'], ...rows])) output.out(line);
      }
      return EXIT.ok;
    });
  },

  async revoke(args, environment, output) {
    const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
    if (positionals.length !== 1) throw new UsageError('revoke takes one key id or prefix, such as abcd1234 or uk_live_abcd1234');
    const reference = positionals[0]!;
    const id = keyIdFromReference(reference);
    if (id === undefined) {
      const why = `"${reference}" is not a managed key id or prefix (8 lowercase letters and digits, or uk_live_ followed by them). `;
      throw new UsageError(`${why}Keys in API_KEYS are bootstrap keys: remove them from API_KEYS and restart the gateway.`);
    }
    return withKeyStore(environment, async (store) => {
      const before = (await store.snapshot()).records.find((record) => record.id === id);
      const record = before?.revokedAt ? before : await store.revoke(id, new Date());
      if (!record) {
        output.err(`pnpm keys: no managed key ${id} in ${store.location} ("pnpm keys list" shows them)`);
        return EXIT.noSuchKey;
      }
      if (before?.revokedAt) {
        output.out(`Key ${record.id} (${record.prefix}) "${record.name}" was already revoked at ${record.revokedAt}.`);
      } else {
        output.out(`Revoked key ${record.id} (${record.prefix}) "${record.name}" at ${record.revokedAt}; every gateway refuses it within a second.`);
      }
      return EXIT.ok;
    });
  },
};

const REDIS_CONNECT_TIMEOUT_MS = 5000;

class StoreUnavailableError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'StoreUnavailableError';
  }
}

/** Runs `use` on the store the gateway would pick: Redis when `REDIS_URL` or `REDIS_CLUSTER_NODES` is set, else the SQLite database. */
async function withKeyStore(environment: Record<string, string | undefined>, use: (records: AccountStore) => Promise<number>): Promise<number> {
  const env = parseEnvironment(keysEnvironmentSchema, environment);
  if (env.redis === undefined) {
    const store = openAccountStore({ redis: undefined, databasePath: env.databasePath, keysFile: env.keysFile });
    try {
      return await use(store);
    } finally {
      await store.close();
    }
  }
  const redis = createRedisConnection(env.redis, 'producer', 'keys-cli');
  const records = openAccountStore({ redis: { client: redis, target: env.redis }, databasePath: env.databasePath, keysFile: env.keysFile });
  try {
    await connected(redis, REDIS_CONNECT_TIMEOUT_MS);
  } catch (error) {
    redis.disconnect();
    throw new StoreUnavailableError(`cannot reach Redis at ${records.location}: ${(error as Error).message}`, error);
  }
  redis.on('error', () => {});
  try {
    return await use(records);
  } finally {
    redis.disconnect();
  }
}

/** Ready, or the first connection error: a CLI says at once that Redis is not there instead of retrying as a service does. */
function connected(redis: RedisClient, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => settle(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const settle = (error?: Error) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('error', settle);
      if (error) reject(error);
      else resolve();
    };
    const onReady = () => settle();
    redis.on('ready', onReady);
    redis.on('error', settle);
  });
}
