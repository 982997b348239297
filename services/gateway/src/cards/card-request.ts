import type { MediaStore } from '@utility-api/media-store';
import type { RenderingSettings } from '@utility-api/render-engine';
import { ALT_TEXT_MAX_LENGTH, cardFormatSchema, cardOptionsSchema, discordIdMismatches, refuseFutureSnowflake, refuseStillOnlyFormat, snowflakeSchema } from '@utility-api/render-jobs';
import { z } from 'zod';
import { problemsFromZod, validationError, type FieldProblem } from '../http/api-error.ts';
import type { Clock } from '../runtime/clock.ts';
import type { RenderQueue } from './rendering/render-queue.ts';
import { applyTemplate, templateReferenceSchema, type TemplateLookup } from './templates/template-fields.ts';

/**
 * What every card endpoint shares (the single card, the batch, the leaderboard, the signed link):
 * the request schemas, the answer schema and the dependencies they are made from.
 */

export interface CardEndpointDependencies {
  queue: RenderQueue;
  /** The templates a card request may name (`template`), each account's own. */
  templates: TemplateLookup;
  /** Where the renderers stored the card: an `Accept: image/*` answer carries its bytes. */
  media: MediaStore;
  publicBaseUrl: string;
  renderTimeoutMs: number;
  mediaTtlDays: number;
  /** Card requests one key may have in progress at once; undefined when limits are off (`RATE_LIMITS=off`). */
  cardsInFlightPerKey?: number | undefined;
  /** Told of every successful answer, for metrics. */
  onRendered?: (reused: boolean) => void;
  /** "Now" for refusing ids from the future; the system clock when not given. */
  clock?: Clock;
  /**
   * The render limits this gateway was configured with, which the description states: the same
   * variables drawing reads (a distributed deployment sets them alike on gateways and renderers).
   */
  renderLimits: Pick<RenderingSettings, 'fetch' | 'renderPool'>;
  /** Embedded mode: the render workers share this process tree's memory. */
  embedded: boolean;
}

/** The card options plus the format to store the card in, which is not a drawing option. */
const profileImageBodySchema = cardOptionsSchema
  .extend({ format: cardFormatSchema.optional(), template: templateReferenceSchema.optional() })
  .superRefine(refuseStillOnlyFormat)
  .superRefine((body, context) => {
    // The level-up card is old level -> new level: without rankData it would have nothing to say.
    if (body.layout === 'levelup' && body.rankData === undefined) context.addIssue({ code: 'custom', path: ['rankData'], message: 'is required when layout is levelup' });
  });

export const resultSchema = z.object({
  success: z.literal(true),
  message: z.literal('Image Created'),
  options: profileImageBodySchema.meta({ description: 'The body options as received (validated), `rankData` included; with `template`, the template\'s fields with the body\'s over them (what was drawn), and `template`.' }),
  url: z.string().meta({ description: 'Public URL of the image: `{PUBLIC_BASE_URL}/media/<uuid>.png` (or `.webp`, `.avif`, `.gif` as `format` asks), fetchable without a key.' }),
  altText: z.string().max(ALT_TEXT_MAX_LENGTH).meta({
    description: `One plain sentence describing the card (layout, name, tag, level, rank, XP, status), at most ${ALT_TEXT_MAX_LENGTH} characters (Discord's limit): pass it as the attachment's \`description\` so screen readers can say what the card shows.`,
    examples: ['Profile card for Ada (@ada.codes): level 12, rank #1, 1.2K of 5K XP, online.'],
  }),
  animated: z.boolean().optional().meta({
    description:
      'Only when the request has `animated: true`: `true` when the card moves (`url` is an animated WebP, or GIF with `format: "gif"`), `false` when nothing on it moves (no moving source, or one whose frames are all the same picture) and `url` is the still card (PNG when `format` was not given, else in `format`).',
  }),
  frames: z.number().int().min(1).optional().meta({
    description:
      'Only when the request has `animated: true`: frames of the stored file (1 when still); the encoder merges a frame identical to the one before, so this can be fewer than the source has. Image answers carry it as `X-Card-Frames`.',
  }),
});

export type ProfileImageBody = z.output<typeof profileImageBodySchema>;

const userIdField = snowflakeSchema.meta({ description: 'Discord user id (17 to 20 digits); one whose timestamp lies in the future is a 400.', examples: ['302050872383242240'] });

/**
 * The user id and body of a card request as every card route checks them (the POSTs, signed links,
 * batches). Ids from the future are checked here, with the gateway's clock, not by the shared
 * schemas: a renderer re-validating a queued job must not refuse it because its own clock differs.
 */
export function cardRequestSchemas(clock: Clock) {
  const body = profileImageBodySchema.superRefine((options, context) => {
    if (options.guildId !== undefined) refuseFutureSnowflake(options.guildId, clock.now(), context, ['guildId']);
  });
  return {
    userId: userIdField.superRefine((id, context) => refuseFutureSnowflake(id, clock.now(), context)),
    body,
    /**
     * A 400 when `discordUser` or `discordMember` is about another user than the card's (or another
     * server than `guildId`): the body alone cannot know the user id, which travels apart from it.
     */
    checkDiscordIds: (userId: string, body: ProfileImageBody, where: FieldProblem['in'], prefix = '') => {
      const problems = discordIdMismatches(userId, body);
      if (problems.length > 0) throw validationError(problems.map(({ path, message }) => ({ in: where, field: `${prefix}${path.join('.')}`, message })));
    },
    /**
     * A card request's fields with its `template` resolved (the account's template underneath, the
     * request's own fields over it), checked as a whole: a bad field is a 400 naming it (under
     * `prefix`, `o.` for a link), an unknown template a 404. The answer keeps `template` to say which.
     */
    resolve: async (templates: TemplateLookup, accountId: string, raw: Record<string, unknown>, where: FieldProblem['in'], prefix = ''): Promise<ProfileImageBody> => {
      const merged = await applyTemplate(templates, accountId, 'profile', raw, where, `${prefix}template`);
      const parsed = body.safeParse(merged.body);
      if (!parsed.success) throw validationError(problemsFromZod(parsed.error, where).map((problem) => ({ ...problem, field: `${prefix}${problem.field === where ? '' : problem.field}`.replace(/\.$/, '') || where })));
      return merged.template ? { ...parsed.data, template: merged.template.id } : parsed.data;
    },
  };
}

