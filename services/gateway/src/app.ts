import type { Lifecycle, Logger } from '@utility-api/infra';
import type { MediaStore } from '@utility-api/media-store';
import type { RedisClient } from '@utility-api/infra/redis';
import Koa from 'koa';
import { accountApi } from './account-area/account-api.ts';
import { announceOwnerSignIn, mountAccountRoutes } from './account-area/account-routes.ts';
import { accountEndpoint } from './accounts/account-endpoint.ts';
import { accountUsageSource } from './accounts/account-usage.ts';
import { ensureOwnerAccount, openAccountStore } from './accounts/open-account-store.ts';
import { planOf } from './accounts/plans.ts';
import { Quotas } from './accounts/quotas.ts';
import { answeringUnavailable, storeUsable, watchAccountStore } from './accounts/store-file-watch.ts';
import { UsageMeter } from './accounts/usage-meter.ts';
import type { ApiKeyIdentity } from './auth/api-keys.ts';
import { ApiKeyVerifier } from './auth/key-verifier.ts';
import { RateLimits } from './auth/rate-limits.ts';
import { CardAdmission } from './cards/card-admission.ts';
import { cardEndpoints } from './cards/card-endpoints.ts';
import { mountMediaRoutes } from './cards/media-routes.ts';
import type { CardAccounting } from './cards/profile-image-batch/endpoint.ts';
import type { RenderQueue } from './cards/rendering/render-queue.ts';
import { templateEndpoints } from './cards/templates/endpoint.ts';
import type { GatewayConfig } from './config.ts';
import { apiDescription } from './docs/api-description.ts';
import { mountDocsRoutes } from './docs/docs-routes.ts';
import { loadDocsSite } from './docs/docs-site.ts';
import { mountHomeRoutes } from './docs/home-routes.ts';
import { ApiError } from './http/api-error.ts';
import { buildOpenApiDocument } from './http/openapi-document.ts';
import { requestPipeline, type GatewayState } from './http/request-pipeline.ts';
import { buildRouter } from './http/router.ts';
import { mountPlaygroundRoutes } from './playground/playground-routes.ts';
import { routeGuards } from './route-guards.ts';
import type { BackingStore } from './runtime/backing-store.ts';
import type { Clock } from './runtime/clock.ts';
import type { GatewayMetrics } from './runtime/gateway-metrics.ts';
import type { RandomSource } from './runtime/random-source.ts';
import { utilityEndpoints } from './utilities/utility-endpoints.ts';

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
   * The render queue the card endpoints draw through, and the run mode it belongs to; an app built
   * without the render path (the light endpoints' tests) has no card endpoints.
   */
  rendering: { queue: RenderQueue; mode: 'embedded' | 'distributed' } | undefined;
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
  const cards = parts.rendering && cardEndpoints({
    queue: parts.rendering.queue,
    embedded: parts.rendering.mode === 'embedded',
    templates: accounts,
    media: parts.media,
    publicBaseUrl: parts.publicBaseUrl,
    renderTimeoutMs: config.renderTimeoutMs,
    mediaTtlDays: config.rendering.media.ttlDays,
    renderLimits: config.rendering,
    cardsInFlightPerKey: config.rateLimits.enabled ? config.rateLimits.cardsInFlightPerKey : undefined,
    onRendered: (reused: boolean) => parts.metrics.cardRequests.inc({ render: reused ? 'reused' : 'new' }),
    clock: parts.runtime.clock,
    accounting: cardAccounting,
    keys,
    store: accounts,
  });
  // Every `/v1` endpoint, in the order they are routed and documented: cards, the ten utilities,
  // templates, the account.
  const endpoints = [
    ...(cards ?? []),
    ...utilityEndpoints({ ...parts.runtime, store: parts.backingStore, environment: config.deploymentEnvironment }),
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
  const area = accountApi(accountArea, rateLimits);
  const guards = routeGuards({ keys, rateLimits, usage: { meter, quotas }, cardAdmission, accountArea: area });
  const router = buildRouter({
    endpoints: [...endpoints, ...area.endpoints],
    ...guards,
    pages: [
      (routes) => mountDocsRoutes(routes, loadDocsSite(document)),
      (routes) => mountMediaRoutes(routes, parts.media),
      mountPlaygroundRoutes,
      mountHomeRoutes,
      (routes) => mountAccountRoutes(routes, area, rateLimits),
    ],
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
