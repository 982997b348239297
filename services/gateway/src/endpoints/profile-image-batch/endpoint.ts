import { z } from 'zod';
import type { ApiKeyIdentity } from '../../auth/api-keys.ts';
import { ApiError, problemsFromZod, validationError } from '../../errors/api-error.ts';
import { errorBodySchema } from '../../errors/error-body.ts';
import { systemClock } from '../../runtime/clock.ts';
import { defineEndpoint, type RequestSnapshot } from '../endpoint.ts';
import { queueErrorToApiError, renderFailureToApiError } from '../card-answers.ts';
import { cardRequestSchemas, resultSchema, type ProfileImageDependencies } from '../profile-image/endpoint.ts';

/** Cards one batch may ask for: a welcome burst, or a leaderboard page of avatars. */
const MAX_BATCH_CARDS = 50;
/** Cards of a batch drawn at once when the deployment sets no CARDS_IN_FLIGHT_PER_KEY (limits off). */
const UNLIMITED_BATCH_CONCURRENCY = 8;

/** What a batch's cards after its first are admitted and counted by: the key's own quota, budget and usage. */
export interface CardAccounting {
  /** The refusal of one more card of the key (its monthly cards quota, then one request of its profile-image budget), or undefined. */
  admit(key: ApiKeyIdentity): Promise<ApiError | undefined>;
  /** Counts one card answered, by its stored format (the usage meter's `cards`). */
  counted(key: ApiKeyIdentity, format: string): void;
}

export interface BatchDependencies extends ProfileImageDependencies {
  accounting: CardAccounting;
}

const itemErrorSchema = z.object({ error: errorBodySchema.shape.error }).meta({ description: 'This card failed: the error a single `POST /v1/profile-image` would have answered (its `status`, `code`, `message`, `details`).' });

/**
 * A batch item its schema refused, kept in its place: the batch goes on, and this card answers its
 * own 400 (the problems named under `cards.<i>.`) without spending anything.
 */
class RefusedCard {
  readonly error: z.ZodError;
  constructor(error: z.ZodError) {
    this.error = error;
  }
}

/**
 * The batch body, typed in the document with the card request's own schemas (`userId` and every
 * `POST /v1/profile-image` body field). Each item is checked by that schema on its own: `catch` keeps
 * a refused one in place (a `RefusedCard`) instead of refusing the batch, while the document shows
 * only the schema it was checked against.
 */
function batchBodySchema<Item extends z.ZodType<{ userId: string }>>(item: Item) {
  const card = item
    .meta({
      description: 'One card request: `userId` (the Discord user id) and any `POST /v1/profile-image` body field, `template` included. Each is checked on its own: a bad one fails only its own result.',
      examples: [{ userId: '302050872383242240', layout: 'welcome', headline: 'Welcome', customUsername: 'Ada' }],
    })
    .catch((refused) => new RefusedCard(new z.ZodError(refused.error.issues)) as never);
  return z.strictObject({
    cards: z
      .array(card)
      .min(1)
      .max(MAX_BATCH_CARDS)
      .meta({ description: `1 to ${MAX_BATCH_CARDS} card requests; the answer lists their results in the same order.` }),
  });
}

const DESCRIPTION = (concurrency: number | undefined) =>
  [
    `Up to ${MAX_BATCH_CARDS} cards in one request, such as a welcome burst or a leaderboard page: \`results[i]\` is what \`POST /v1/profile-image\``,
    "(JSON) would have answered for `cards[i]`, or `{\"error\": {...}}` with that request's error. The batch answers `200` once it is admitted",
    'whatever its cards do; refusals of the batch itself (key, scope, quota, budget, cards in flight, a body whose `cards` is not a list of 1 to 50)',
    'are the usual errors. An item its schema refuses (a bad field, or not an object at all) is a `400` in its own result.',
    "Each card counts as a card request would: the batch is one request of the account's monthly quota and holds one of the key's cards in flight;",
    "every card is one request of the key's profile-image budget (the first spent when the batch is admitted, each other one when its turn comes)",
    "and one card of the monthly cards quota; a card over either is `429` in its own result. A card that fails validation spends nothing.",
    `The cards are drawn ${concurrency === undefined ? `${UNLIMITED_BATCH_CONCURRENCY}` : `\`CARDS_IN_FLIGHT_PER_KEY\` (${concurrency})`} at a time, in the key's own lane of the`,
    "render queue, so a batch delays another key no more than that key's own cards would; each card has the render deadline of a single request.",
  ].join(' ');

/** `POST /v1/profile-image/batch`: many cards, one request, each card's result in order. */
export function profileImageBatchEndpoint(dependencies: BatchDependencies) {
  const { userId: userIdSchema, body: cardBodySchema, resolve, checkDiscordIds } = cardRequestSchemas(dependencies.clock ?? systemClock);
  const bodySchema = batchBodySchema(cardBodySchema.safeExtend({ userId: userIdSchema }));
  const concurrency = dependencies.cardsInFlightPerKey ?? UNLIMITED_BATCH_CONCURRENCY;

  const drawOne = async (item: z.output<typeof bodySchema>['cards'][number] | RefusedCard, index: number, key: ApiKeyIdentity, request: RequestSnapshot) => {
    const prefix = `cards.${index}`;
    if (item instanceof RefusedCard) {
      throw validationError(problemsFromZod(item.error, 'body').map((problem) => ({ ...problem, field: problem.field === 'body' ? prefix : `${prefix}.${problem.field}` })));
    }
    const { userId, ...received } = item;
    // Checked as received; with a template, the merged fields are checked again as a whole.
    const body = received.template === undefined ? received : await resolve(dependencies.templates, key.accountId, received, 'body', `${prefix}.`);
    checkDiscordIds(userId, body, 'body', `${prefix}.`);
    // The batch's admission paid for its first card; every other one pays as it starts.
    if (index > 0) {
      const refusal = await dependencies.accounting.admit(key);
      if (refusal) throw refusal;
    }
    const { format, template: _template, ...options } = body;
    const { result } = await dependencies.queue.render({ userId, options, format, requestId: request.requestId }, dependencies.renderTimeoutMs, key.id, request.gone);
    if (!result.ok) throw renderFailureToApiError(result.failure);
    dependencies.accounting.counted(key, result.format);
    return {
      success: true as const,
      message: 'Image Created' as const,
      options: body,
      url: `${dependencies.publicBaseUrl}/media/${result.mediaKey}.${result.format}`,
      altText: result.altText,
      ...result.animation,
    };
  };

  return defineEndpoint({
    operationId: 'createProfileImageBatch',
    methods: ['POST'],
    path: '/v1/profile-image/batch',
    summary: 'Create up to 50 profile card images at once',
    description: DESCRIPTION(dependencies.cardsInFlightPerKey),
    tags: ['Profile image'],
    authenticated: true,
    scope: 'cards',
    limits: { budget: 'profileImage', holdsCardSlot: true },
    stopsWhenClientLeaves: true,
    body: bodySchema,
    bodyExample: { cards: [{ userId: '302050872383242240', customTag: 'Welcome!' }, { userId: '80351110224678912', template: 'tpl_3k9x2m7q1c0z', customUsername: 'Grace' }] },
    responses: {
      200: {
        description: 'Every card\'s result, in the order asked.',
        schema: z.object({ results: z.array(z.union([resultSchema, itemErrorSchema])) }),
        example: {
          results: [
            { success: true, message: 'Image Created', options: { customTag: 'Welcome!' }, url: `${dependencies.publicBaseUrl}/media/8d0f6c3e-2b1a-8c4d-9e7f-0a1b2c3d4e5f.png`, altText: 'Profile card for Ada (Welcome!).' },
            { error: { status: 404, code: 'template_not_found', message: "No such template in this key's account.", details: [{ in: 'body', field: 'cards.1.template', message: 'names no template of this account' }] } },
          ],
        },
      },
    },
    handle: async ({ body, request }) => {
      const key = request.key!;
      const results: unknown[] = Array.from({ length: body.cards.length });
      let next = 0;
      // A few workers take the cards in order: at most `concurrency` of this batch in the queue at once.
      const worker = async () => {
        while (next < body.cards.length && request.gone?.aborted !== true) {
          const index = next++;
          results[index] = await drawOne(body.cards[index]!, index, key, request).catch((error: unknown) => {
            const answer = queueErrorToApiError(error, dependencies.renderTimeoutMs);
            if (!(answer instanceof ApiError)) throw answer;
            const { status, code, message, details } = answer;
            return { error: { status, code, message, ...(details && details.length > 0 ? { details: [...details] } : {}) } };
          });
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, body.cards.length) }, worker));
      return { results };
    },
  });
}
