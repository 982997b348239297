import type { Lifecycle, Logger } from '@utility-api/infra';
import type { MediaStore } from '@utility-api/media-store';
import type { RedisClient } from '@utility-api/infra/redis';
import Koa from 'koa';
import { accountApi } from './account-area/account-api.ts';
import { announceOwnerSignIn } from './account-area/account-routes.ts';
import { accountUsageSource } from './accounts/account-usage.ts';
import type { AccountStore } from './accounts/account-store.ts';
import { planOf } from './accounts/plans.ts';
import { Quotas } from './accounts/quotas.ts';
import { answeringUnavailable, storeUsable, watchAccountStore } from './accounts/store-file-watch.ts';
import { UsageMeter } from './accounts/usage-meter.ts';
import { CardAdmission } from './admission/card-admission.ts';
import type { ApiKeyIdentity } from './auth/api-keys.ts';
import { ApiKeyVerifier } from './auth/key-verifier.ts';
import { ensureOwnerAccount, openAccountStore } from './accounts/open-account-store.ts';
import type { GatewayConfig } from './config.ts';
import { loadDocsSite } from './docs/docs-site.ts';
import { accountEndpoint } from './endpoints/account/endpoint.ts';
import type { EndpointDefinition } from './endpoints/endpoint.ts';
import type { CardAccounting } from './endpoints/profile-image-batch/endpoint.ts';
import { lightEndpoints } from './endpoints/light-endpoints.ts';
import { templateEndpoints } from './endpoints/templates/endpoint.ts';
import { ApiError } from './errors/api-error.ts';
import type { BackingStore } from './health/backing-store.ts';
import { requestPipeline, type GatewayState } from './http/request-pipeline.ts';
import { buildRouter } from './http/router.ts';
import type { GatewayMetrics } from './metrics/gateway-metrics.ts';
import { apiDescription } from './openapi/api-description.ts';
import { buildOpenApiDocument } from './openapi/openapi-document.ts';
import { RateLimits } from './rate-limits/rate-limits.ts';
import type { Clock } from './runtime/clock.ts';
import type { RandomSource } from './runtime/random-source.ts';

const API_VERSION = '1.0.0';

export interface GatewayRuntime {
  clock: Clock;
  random: RandomSource;
}

interface GatewayAppParts {
  config: GatewayConfig;
  runtime: GatewayRuntime;
  logger: Logger;
  lifecycle: Lifecycle;
  metrics: GatewayMetrics;
  /** Managed keys and limit counters live in Redis when there is one; in a file and memory otherwise. */
  redis: RedisClient | undefined;
  /** Where `/media/<uuid>.png` is read from. */
  media: MediaStore;
  /** What `/v1/status` and `/readyz` ping besides the media store. */
  backingStore: BackingStore;
  publicBaseUrl: string;
  /**
   * The card endpoints, listed before the light ones; none in an app built without the render
   * path. Made from the app's keys and account store (signed links check keys and remember cards).
   */
  renderEndpoints: readonly EndpointDefinition[] | ((app: { keys: ApiKeyVerifier; accounts: AccountStore; cardAccounting: CardAccounting }) => readonly EndpointDefinition[]);
}

/**
 * The Koa app from its parts: keys, limits, the endpoints, docs, media and probes behind the one
 * request pipeline. Opens the keys (registering their closer with the lifecycle); starts nothing else.
 */
export async function createGatewayApp(parts: GatewayAppParts) {
  const { config, logger } = parts;
  const accounts = parts.lifecycle.add(
    'account store',
    openAccountStore({ redis: parts.redis && config.redis && { client: parts.redis, target: config.redis }, databasePath: config.databasePath, keysFile: config.keysFile }),
    (store) => store.close(),
  );
  watchAccountStore(accounts, logger, parts.lifecycle);
  // The account area and the template endpoints answer a store that fails with 503 store_unavailable, never a 500.
  const answeringStore = answeringUnavailable(accounts);
  // The local owner's account always exists: bootstrap keys and CLI-made keys belong to it.
  const owner = await ensureOwnerAccount(accounts, { now: new Date() });
  // What the start-up summary says of the owner's keys.
  const ownerPlan = planOf(config.plans, owner.plan);
  const keys = parts.lifecycle.add(
    'api keys',
    await ApiKeyVerifier.open({ bootstrapKeys: config.apiKeys, records: accounts, logger, generateWhenEmpty: true }),
    (verifier) => verifier.close(),
  );
  // A card request holds its slot for at most the render deadline plus reading the stored card back.
  const rateLimits = config.rateLimits.enabled ? new RateLimits(config.rateLimits, parts.redis, logger, config.renderTimeoutMs * 2 + 30_000) : undefined;
  // Registered after the store, so it closes (writing its last counts) before the store does.
  const meter = parts.lifecycle.add('usage meter', new UsageMeter({ store: accounts, clock: parts.runtime.clock, logger, flushMs: config.usageFlushMs }), (usage) => usage.close());
  // Quotas are limits: RATE_LIMITS=off turns them off with the others; usage is counted either way.
  // Registered after the meter, so it closes first: unspent request leases go back to the store.
  const quotas = config.rateLimits.enabled
    ? parts.lifecycle.add('quotas', new Quotas({ store: accounts, meter, plans: config.plans, clock: parts.runtime.clock, logger }), (quota) => quota.close())
    : undefined;
  const cardAdmission = new CardAdmission({ rateLimits, quotas, slotsPerKey: config.rateLimits.cardsInFlightPerKey, logger });
  // A batch's cards: each is admitted as a card of its own (a slot of the key, waited for, and a
  // unit of the cards quota), the ones after the first spend the key's profile-image budget, and
  // each answered one is counted as a card.
  const refused = (key: ApiKeyIdentity, error: unknown) => {
    if (error instanceof ApiError && error.status === 429) meter.count(key.accountId, key.id, 'rate_limited', 'createProfileImageBatch');
  };
  const cardAccounting: CardAccounting = {
    async admit(key, options) {
      const ticket = await cardAdmission.admit(key, options).catch((error: unknown) => {
        refused(key, error);
        throw error;
      });
      if (options.spendsBudget) {
        const budgetRefusal = await rateLimits?.spend(key, 'profileImage');
        if (budgetRefusal) {
          ticket.settle(false);
          refused(key, budgetRefusal);
          throw budgetRefusal;
        }
      }
      return ticket;
    },
    counted: (key, format) => meter.count(key.accountId, key.id, 'cards', format),
  };
  const templates = templateEndpoints({ store: answeringStore, plans: config.plans, clock: parts.runtime.clock });
  const endpoints = [
    ...(typeof parts.renderEndpoints === 'function' ? parts.renderEndpoints({ keys, accounts, cardAccounting }) : parts.renderEndpoints),
    ...lightEndpoints({ ...parts.runtime, store: parts.backingStore, environment: config.deploymentEnvironment }),
    ...templates,
    accountEndpoint(accountUsageSource({ store: accounts, meter, plans: config.plans, clock: parts.runtime.clock, quotasEnforced: quotas !== undefined })),
  ];
  const document = buildOpenApiDocument(endpoints, {
    title: 'Utility API',
    version: API_VERSION,
    description: apiDescription(config.rateLimits),
    serverUrl: parts.publicBaseUrl,
    rateLimited: rateLimits !== undefined,
  });
  const accountArea = {
    store: answeringStore,
    plans: config.plans,
    settings: config.accountArea,
    publicBaseUrl: parts.publicBaseUrl,
    keys,
    previewEndpoint: endpoints.find((endpoint) => endpoint.operationId === 'createProfileImage'),
    templateEndpoints: templates,
  };
  const ownerSignInLink = await announceOwnerSignIn(accountArea, logger);
  const router = buildRouter({
    endpoints,
    keys,
    media: parts.media,
    health: {
      readiness: {
        [parts.backingStore.kind]: () => parts.backingStore.ping(),
        storage: () => parts.media.ping(),
        // The SQLite file: deleted, replaced or unwritable fails readiness at the next probe.
        ...(accounts.kind === 'sqlite' ? { database: async () => void storeUsable(accounts) } : {}),
      },
      registry: parts.metrics.registry,
      metricsToken: config.metricsToken,
    },
    rateLimits,
    usage: { meter, quotas },
    cardAdmission,
    docs: { site: loadDocsSite(document) },
    accountArea: accountApi(accountArea, rateLimits),
  });

  // Behind one trusted proxy, the client is the last X-Forwarded-For entry (the one our proxy added):
  // earlier entries come from the client and would let it pick its own address for the limits.
  const app = new Koa<GatewayState>({ proxy: config.trustProxy, maxIpsCount: 1 });
  // Koa would print every error to stderr on top of our structured log line.
  app.silent = true;
  app.use(requestPipeline(logger, parts.metrics.latency));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return { app, router, keys, rateLimits, accounts, ownerSignInLink, ownerPlan };
}
