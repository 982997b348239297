import { parseArgs } from 'node:util';
import { ConfigurationError, envInteger, envUrl, parseEnvironment, terminalSafe } from '@utility-api/infra';
import { createRedisConnection, type RedisClient } from '@utility-api/infra/redis';
import { z } from 'zod';
import { type Account, type AuditEvent } from './account-model.ts';
import { ACCOUNT_ID, OWNER_ACCOUNT_ID } from '../auth/api-keys.ts';
import { KEY_SCOPES, type KeyScope } from '../http/key-scopes.ts';
import type { AccountStore } from './account-store.ts';
import { plansEnvironmentSchema, type Plans } from './plans.ts';
import { createSignInLink } from './sign-in-links.ts';
import { generateKeyId, KEY_NAME, keyIdFromReference, KeyStoreDataError, type ApiKeyRecord } from '../auth/api-keys.ts';
import { ensureOwnerAccount, keysEnvironmentSchema, openAccountStore } from './open-account-store.ts';
import { createApiKey, listApiKeys } from '../auth/key-records.ts';
import { formatRateSpec, parseRateSpec, RATE_SPEC_FORMAT, type KeyRateLimits } from '../auth/rate-spec.ts';

/** sysexits(3) codes, so scripts can tell a typo from an outage. */
const EXIT = { ok: 0, usage: 64, dataError: 65, noSuchKey: 66, unavailable: 69, software: 70, config: 78 } as const;

interface CliOutput {
  out: (line: string) => void;
  err: (line: string) => void;
}

class UsageError extends Error {}

const HELP = `Manage API keys and accounts: ./run keys <command> [options]

Keys:
  create --name <name> [--account <id>] [--scopes cards,utility] [--rate <n>/<window>] [--image-rate <n>/<window>] [--json]
        Creates a key and prints it ONCE, with its id and prefix. Only its SHA-256 is stored.
        --account     the account it belongs to (default: the local owner, ${OWNER_ACCOUNT_ID})
        --scopes      what it may call: cards (the card endpoints), utility (the others), or both
                      (the default)
        --rate        this key's budget for the light endpoints (default: RATE_LIMIT_DEFAULT)
        --image-rate  this key's budget for POST /v1/profile-image (default: RATE_LIMIT_PROFILE_IMAGE)
        Budgets are ${RATE_SPEC_FORMAT}.
  list [--json]
        Every managed key: id, name, prefix, account, scopes, created, revoked, limits. Never a
        key or a hash.
  revoke <id|prefix>
        Revokes a key (such as abcd1234 or uk_live_abcd1234); every gateway refuses it within a second.

Accounts:
  accounts list [--json]
        Every account: id, name, plan, Discord user, created.
  accounts create --name <name> [--plan <plan>] [--json]
        A new account (id acct_ and 16 random characters) on a plan from PLANS (default: DEFAULT_PLAN,
        else the first plan).
  accounts plan <id> <plan>
        Moves an account to another plan of PLANS; its quota changes at once on every gateway.
  sign-in-link [--account <id>]
        Prints a one-time link that signs a browser in to the account area as the account
        (default: the local owner). It works once, for 15 minutes; only its hash is stored. The
        link starts with PUBLIC_BASE_URL, else http://127.0.0.1:PORT (PORT default 3000).

  help  This text.

Where accounts and keys live (as the gateway decides): REDIS_URL or REDIS_CLUSTER_NODES set: that
Redis; otherwise the SQLite database DATABASE_PATH (default .data/utility-api.sqlite, relative to
the current folder), shared with a running gateway, which imports an older keys file (KEYS_FILE,
.data/api-keys.json) the first time it opens. Plans come from PLANS and DEFAULT_PLAN, as the
gateway reads them. Every change is written to the account's audit list (actor: cli).

Keys in API_KEYS are bootstrap keys: they work alongside managed keys (as the local owner's) but
are not managed here; remove one from API_KEYS and restart the gateway to retire it.

Exit codes: 0 done, 64 bad usage, 65 unreadable key data, 66 no such key or account, 69 store
unreachable, 78 bad environment variable.`;

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

/** What `list --json` shows of a record: everything but the hashes (a key made before accounts is the owner's, and may call everything). */
function publicView({ id, name, prefix, createdAt, revokedAt, limits, accountId, scopes }: ApiKeyRecord) {
  return { id, name, prefix, accountId: accountId ?? OWNER_ACCOUNT_ID, scopes: scopes ?? [...KEY_SCOPES], createdAt, revokedAt, limits: limits ?? {} };
}

/** `--scopes cards,utility`: known scopes, each once; none given is every scope. */
function scopesOption(value: string | undefined): KeyScope[] | undefined {
  if (value === undefined) return undefined;
  const scopes = value.split(',').map((scope) => scope.trim());
  const known = new Set<string>(KEY_SCOPES);
  const unknown = scopes.filter((scope) => !known.has(scope));
  if (scopes.length === 0 || unknown.length > 0) {
    throw new UsageError(`--scopes must be ${KEY_SCOPES.join(', ')} or both separated by a comma, not "${value}"`);
  }
  return KEY_SCOPES.filter((scope) => scopes.includes(scope));
}

function accountIdOption(value: string | undefined, option: string): string | undefined {
  if (value === undefined) return undefined;
  if (!ACCOUNT_ID.test(value)) throw new UsageError(`${option} must be an account id such as ${OWNER_ACCOUNT_ID} ("./run keys accounts list" shows them), not "${value}"`);
  return value;
}

/** A name inside one of the CLI's messages: escaped whole, so it cannot break the line either. */
const shown = (name: string) => terminalSafe(name);

/** An account's name: what a person reads in a list, so printable text only. */
const ACCOUNT_NAME = /^[^\p{C}]{1,100}$/u;

function planOption(plans: Plans, value: string): string {
  if (!plans.byName.has(value)) throw new UsageError(`no plan "${value}" in PLANS (plans: ${[...plans.byName.keys()].join(', ')})`);
  return value;
}

/** Plans as the gateway reads them (PLANS, DEFAULT_PLAN). */
const readPlans = (environment: Record<string, string | undefined>) => parseEnvironment(plansEnvironmentSchema, environment);

/** Where a sign-in link points: the gateway's public address, as it would derive it. */
const linkEnvironmentSchema = z
  .object({ PUBLIC_BASE_URL: envUrl(['http', 'https']).optional(), PORT: envInteger({ min: 0, max: 65535, default: 3000 }) })
  .superRefine((env, context) => {
    if (env.PUBLIC_BASE_URL === undefined && env.PORT === 0) {
      context.addIssue({ code: 'custom', path: ['PORT'], message: 'is 0 (a free port picked at start), so a link cannot name it: set PUBLIC_BASE_URL' });
    }
  })
  .transform((env) => env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${env.PORT}`);

const audit = (store: AccountStore, accountId: string, type: AuditEvent['type'], detail: Record<string, string>) =>
  store.audit({ at: new Date().toISOString(), accountId, type, actor: 'cli', detail });

/**
 * The account a command acts for: `--account`, or the local owner (made now if no gateway has
 * yet). A missing account is reported (exit 66), not created.
 */
async function accountFor(store: AccountStore, accountId: string | undefined, environment: Record<string, string | undefined>, output: CliOutput): Promise<Account | undefined> {
  if (accountId === undefined || accountId === OWNER_ACCOUNT_ID) {
    return ensureOwnerAccount(store, { now: new Date() });
  }
  const account = await store.getAccount(accountId);
  if (!account) output.err(`keys: no account ${accountId} in ${store.location} ("./run keys accounts list" shows them)`);
  return account;
}

function accountsTable(accounts: readonly Account[]): string[] {
  const rows = accounts.map((account) => [account.id, account.name, account.plan, account.discordUserId ?? '-', account.createdAt]);
  return table([['ID', 'NAME', 'PLAN', 'DISCORD', 'CREATED'], ...rows]);
}

/** Cells hold names other people chose (a Discord display name): each is escaped whole, line breaks too. */
function table(cells: string[][]): string[] {
  const rows = cells.map((row) => row.map((cell) => terminalSafe(cell)));
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd());
}

/** `./run keys ...`; returns the exit code. */
export async function runKeysCli(argv: readonly string[], environment: Record<string, string | undefined>, printed: CliOutput): Promise<number> {
  // Whatever is printed goes through terminalSafe: names come from the store, where other people
  // wrote them, and a terminal would run the escape sequences they could hold. Line breaks stay for
  // the CLI's own messages; names, in tables and in messages, are escaped whole (`shown`).
  const output: CliOutput = {
    out: (line) => printed.out(terminalSafe(line, { keepLineBreaks: true })),
    err: (line) => printed.err(terminalSafe(line, { keepLineBreaks: true })),
  };
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
      output.err(`keys: ${error.message}\nRun "./run keys --help" for usage.`);
      return EXIT.usage;
    }
    output.err(`keys: ${error instanceof Error ? error.message : String(error)}`);
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
      options: { name: { type: 'string' }, account: { type: 'string' }, scopes: { type: 'string' }, rate: { type: 'string' }, 'image-rate': { type: 'string' }, json: { type: 'boolean' } },
      allowPositionals: true,
    });
    if (positionals.length > 0) throw new UsageError(`create takes no positional arguments (got "${positionals.join(' ')}"); use --name`);
    const name = values.name?.trim();
    if (!name) throw new UsageError('create needs --name <name>, such as --name my-bot');
    if (!KEY_NAME.test(name)) throw new UsageError('--name must be 1-64 letters, digits, spaces or . _ : @ / -');
    const rate = rateOption(values.rate, '--rate');
    const imageRate = rateOption(values['image-rate'], '--image-rate');
    const limits: KeyRateLimits = { ...(rate ? { default: rate } : {}), ...(imageRate ? { profileImage: imageRate } : {}) };
    const scopes = scopesOption(values.scopes);
    const accountId = accountIdOption(values.account, '--account');

    return withKeyStore(environment, async (records) => {
      const account = await accountFor(records, accountId, environment, output);
      if (!account) return EXIT.noSuchKey;
      const { key, record } = await createApiKey(records, { name, limits, now: new Date(), accountId: account.id, ...(scopes ? { scopes } : {}) });
      await audit(records, account.id, 'key_created', { key: record.prefix, name: record.name, scopes: publicView(record).scopes.join(',') });
      if (values.json) {
        output.out(JSON.stringify({ key, ...publicView(record) }));
      } else {
        output.out(`Created key ${record.id} (${record.prefix}) named "${shown(record.name)}" for account ${account.id} in ${records.location}`);
        output.out(`Scopes: ${publicView(record).scopes.join(', ')}`);
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
        output.out(`No managed keys in ${store.location}. Create one with: ./run keys create --name <name>`);
      } else {
        const rows = records.map((record) => {
          const view = publicView(record);
          return [record.id, record.prefix, record.name, view.accountId, view.scopes.join(','), record.createdAt, record.revokedAt ?? '-', limitsText(record.limits)];
        });
        for (const line of table([['ID', 'PREFIX', 'NAME', 'ACCOUNT', 'SCOPES', 'CREATED', 'REVOKED', 'LIMITS'], ...rows])) output.out(line);
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
        output.err(`keys: no managed key ${id} in ${store.location} ("./run keys list" shows them)`);
        return EXIT.noSuchKey;
      }
      if (before?.revokedAt) {
        output.out(`Key ${record.id} (${record.prefix}) "${shown(record.name)}" was already revoked at ${record.revokedAt}.`);
      } else {
        await audit(store, record.accountId ?? OWNER_ACCOUNT_ID, 'key_revoked', { key: record.prefix, name: record.name });
        output.out(`Revoked key ${record.id} (${record.prefix}) "${shown(record.name)}" at ${record.revokedAt}; every gateway refuses it within a second.`);
      }
      return EXIT.ok;
    });
  },

  async accounts(args, environment, output) {
    const [subcommand, ...rest] = args;
    const run = subcommand === undefined ? undefined : ACCOUNT_COMMANDS[subcommand];
    if (!run) throw new UsageError(subcommand === undefined ? 'accounts needs a command: list, create or plan' : `unknown accounts command "${subcommand}" (list, create or plan)`);
    return run(rest, environment, output);
  },

  async 'sign-in-link'(args, environment, output) {
    const { values, positionals } = parseArgs({ args, options: { account: { type: 'string' } }, allowPositionals: true });
    if (positionals.length > 0) throw new UsageError('sign-in-link takes no positional arguments; use --account <id>');
    const accountId = accountIdOption(values.account, '--account');
    const baseUrl = parseEnvironment(linkEnvironmentSchema, environment);
    return withKeyStore(environment, async (store) => {
      const account = await accountFor(store, accountId, environment, output);
      if (!account) return EXIT.noSuchKey;
      const link = await createSignInLink(store, { accountId: account.id, baseUrl, now: new Date() });
      await audit(store, account.id, 'sign_in_link_created', { expiresAt: link.expiresAt.toISOString() });
      output.out(`A sign-in link for account ${account.id} ("${shown(account.name)}"), valid once until ${link.expiresAt.toISOString()}:`);
      output.out('');
      output.out(`  ${link.url}`);
      output.out('');
      return EXIT.ok;
    });
  },
};

const ACCOUNT_COMMANDS: Readonly<Record<string, Command>> = {
  async list(args, environment, output) {
    const { values, positionals } = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: true });
    if (positionals.length > 0) throw new UsageError('accounts list takes no arguments');
    return withKeyStore(environment, async (store) => {
      const accounts = await store.listAccounts();
      if (values.json) output.out(JSON.stringify(accounts));
      else if (accounts.length === 0) output.out(`No accounts in ${store.location} yet: a gateway makes the local owner's at start, or: ./run keys accounts create --name <name>`);
      else for (const line of accountsTable(accounts)) output.out(line);
      return EXIT.ok;
    });
  },

  async create(args, environment, output) {
    const { values, positionals } = parseArgs({ args, options: { name: { type: 'string' }, plan: { type: 'string' }, json: { type: 'boolean' } }, allowPositionals: true });
    if (positionals.length > 0) throw new UsageError(`accounts create takes no positional arguments (got "${positionals.join(' ')}"); use --name`);
    const name = values.name?.trim();
    if (!name) throw new UsageError('accounts create needs --name <name>, such as --name "Acme bots"');
    if (!ACCOUNT_NAME.test(name)) throw new UsageError('--name must be 1-100 printable characters');
    const plans = readPlans(environment);
    const plan = values.plan === undefined ? plans.defaultPlan.name : planOption(plans, values.plan);
    return withKeyStore(environment, async (store) => {
      // 16 random characters (about 82 bits): ids are not secrets, but nobody should guess one.
      const account: Account = { id: `acct_${generateKeyId()}${generateKeyId()}`, name, discordUserId: null, plan, createdAt: new Date().toISOString() };
      const stored = await store.createAccount(account);
      if (stored.id !== account.id || stored.createdAt !== account.createdAt) throw new Error(`account id ${account.id} is taken; run the command again`);
      await audit(store, account.id, 'account_created', { name, plan });
      if (values.json) output.out(JSON.stringify(account));
      else output.out(`Created account ${account.id} "${shown(account.name)}" on plan ${account.plan} in ${store.location}`);
      return EXIT.ok;
    });
  },

  async plan(args, environment, output) {
    const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
    if (positionals.length !== 2) throw new UsageError('accounts plan takes an account id and a plan, such as: accounts plan acct_owner pro');
    const accountId = accountIdOption(positionals[0], 'the account')!;
    const plan = planOption(readPlans(environment), positionals[1]!);
    return withKeyStore(environment, async (store) => {
      const before = await store.getAccount(accountId);
      const account = before && (await store.setPlan(accountId, plan));
      if (!before || !account) {
        output.err(`keys: no account ${accountId} in ${store.location} ("./run keys accounts list" shows them)`);
        return EXIT.noSuchKey;
      }
      await audit(store, accountId, 'plan_changed', { from: before.plan, to: plan });
      output.out(`Account ${accountId} "${shown(account.name)}" moved from plan ${before.plan} to ${plan}.`);
      return EXIT.ok;
    });
  },
};

/** How long the CLI waits for Redis before saying it is unreachable (exit 69): a CLI does not retry as a service does. */
export const REDIS_CONNECT_TIMEOUT_MS = 5000;

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
