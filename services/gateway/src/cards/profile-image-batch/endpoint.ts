import { z } from 'zod';
import type { ApiKeyIdentity } from '../../auth/api-keys.ts';
import type { CardTicket } from '../card-admission.ts';
import { ApiError, problemsFromZod, validationError } from '../../http/api-error.ts';
import { errorBodySchema } from '../../http/error-body.ts';
import { systemClock } from '../../runtime/clock.ts';
import { defineEndpoint, type RequestSnapshot } from '../../http/endpoint.ts';
import { queueErrorToApiError, renderFailureToApiError } from '../card-answers.ts';
import { cardRequestSchemas, resultSchema, type CardEndpointDependencies } from '../card-request.ts';

/** Cards one batch may ask for: a welcome burst, or a leaderboard page of avatars. */
const MAX_BATCH_CARDS = 50;
/** Cards of a batch drawn at once when the deployment sets no CARDS_IN_FLIGHT_PER_KEY (limits off). */
const UNLIMITED_BATCH_CONCURRENCY = 8;

/** What each card of a batch is admitted and counted by: the key's slots, its account's cards quota, its budget and usage. */
export interface CardAccounting {
  /**
   * Admits one card of the key (CardAdmission: a slot, waited for up to `waitMs`, and a unit of the
   * cards quota; then, with `spendsBudget`, one request of its profile-image budget): the ticket to
   * settle when the card is over, or throws the refusal (an ApiError).
   */
  admit(key: ApiKeyIdentity, options: { waitMs: number; gone?: AbortSignal | undefined; spendsBudget: boolean }): Promise<CardTicket>;
  /** Counts one card answered, by its stored format (the usage meter's `cards`). */
  counted(key: ApiKeyIdentity, format: string): void;
}

export interface BatchDependencies extends CardEndpointDependencies {
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
    "Each card counts as a card request would: the batch is one request of the account's monthly quota; every card takes its own slot of the key's",
    `cards in flight (${concurrency === undefined ? 'none while limits are off' : `\`CARDS_IN_FLIGHT_PER_KEY\`, ${concurrency}, shared with the key's other cards and batches`}), waiting for one up to the render deadline`,
    "(then that card alone is `429 too_many_cards_in_flight` in its result), and its own unit of the account's monthly cards quota in the store",
    '(given back unless the card is answered; a card over the quota is `429 quota_exceeded` with `Retry-After` in its result). Every card is one request',
    "of the key's profile-image budget (the first spent when the batch is admitted, each other one when its turn comes). A card that fails validation spends nothing.",
    `So a key never has more than ${concurrency === undefined ? UNLIMITED_BATCH_CONCURRENCY : concurrency} cards queued or drawing however many batches it sends; each card has the render deadline of a single request.`,
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
    // Each card waits for a slot of its key and takes a unit of the cards quota before it is queued;
    // the batch's admission spent the first card's budget, every other one spends its own.
    const ticket = await dependencies.accounting.admit(key, { waitMs: dependencies.renderTimeoutMs, gone: request.gone, spendsBudget: index > 0 });
    let answered = false;
    let result;
    try {
      const { format, template: _template, ...options } = body;
      ({ result } = await dependencies.queue.render({ userId, options, format, requestId: request.requestId }, dependencies.renderTimeoutMs, key.id, request.gone));
      answered = result.ok;
    } finally {
      ticket.settle(answered);
    }
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
    // No slot for the batch itself: each of its cards takes its own (CardAccounting).
    limits: { budget: 'profileImage' },
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
