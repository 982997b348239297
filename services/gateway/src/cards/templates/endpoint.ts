import { cardFormatSchema, cardOptionsSchema, discordAttachmentUrlProblems, leaderboardOptionsSchema, refuseStillOnlyFormat } from '@utility-api/render-jobs';
import { z } from 'zod';
import { storedDisplayName } from '@utility-api/infra';
import { TEMPLATE_ID, TEMPLATE_KINDS, type CardTemplate } from '../../accounts/account-model.ts';
import type { AccountStore } from '../../accounts/account-store.ts';
import { planOf, templatesAllowed, type Plans } from '../../accounts/plans.ts';
import { ID_ALPHABET, randomText } from '../../auth/api-keys.ts';
import { templateLimitError, templateNotFoundError } from '../../http/api-error.ts';
import type { Clock } from '../../runtime/clock.ts';
import { defineEndpoint, Reply } from '../../http/endpoint.ts';

export interface TemplateDependencies {
  store: Pick<AccountStore, 'createTemplate' | 'getTemplate' | 'listTemplates' | 'updateTemplate' | 'deleteTemplate' | 'getAccount'>;
  plans: Plans;
  clock: Clock;
}

/**
 * Body fields that describe the member rather than the design: a template never holds them, each
 * card request (POST, link, batch item) gives them (the user id is not a body field at all).
 */
const PROFILE_MEMBER_FIELDS = { customUsername: true, customAvatar: true, rankData: true, presenceStatus: true, discordUser: true, discordMember: true, discordRoleColors: true } as const;
/** A leaderboard's member data: its rows and the asking member's row, which each board request gives. */
const LEADERBOARD_MEMBER_FIELDS = { rows: true, highlight: true } as const;

const listed = (fields: object) => Object.keys(fields).map((field) => `\`${field}\``).join(', ');

/** A profile design: the profile-image body without the member's own fields; the usual 400 names any of them as unknown. */
const profileTemplateFieldsSchema = cardOptionsSchema
  .omit(PROFILE_MEMBER_FIELDS)
  .extend({ format: cardFormatSchema.optional() })
  .superRefine(refuseStillOnlyFormat)
  // A template is drawn for months: a Discord attachment URL in it would expire in a day.
  .superRefine((fields, context) => {
    for (const problem of discordAttachmentUrlProblems(fields)) context.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  })
  .meta({
    description: `Any \`POST /v1/profile-image\` body field except the member's own (${listed(PROFILE_MEMBER_FIELDS)}), which each card request gives. A Discord attachment URL (\`cdn.discordapp.com\` or \`media.discordapp.net\` \`/attachments/...\`) as \`customBackground\` or a \`customBadges\` entry is a 400: Discord makes those links expire after about a day, and a template is drawn for as long as it is kept.`,
  });

/** A leaderboard design: the board's look (title, score label, colours, format) without its rows, which each board request gives. */
const leaderboardTemplateFieldsSchema = z
  .strictObject(leaderboardOptionsSchema.shape)
  .omit(LEADERBOARD_MEMBER_FIELDS)
  .extend({ format: cardFormatSchema.optional() })
  .meta({ description: `Any \`POST /v1/leaderboard-image\` body field except the board's own data (${listed(LEADERBOARD_MEMBER_FIELDS)}), which each board request gives.` });

/** A display name other people read (the account pages, the playground): stored without controls, bidi overrides or lone surrogates. */
const nameSchema = z
  .string()
  .overwrite(storedDisplayName)
  .min(1)
  .max(100)
  .meta({ description: 'Your name for the design (1 to 100 characters), stored without control characters, bidi overrides and lone surrogates and trimmed.', examples: ['Welcome, dark'] });
const profileKind = z.literal('profile').meta({ description: 'A profile card design (the default): `POST /v1/profile-image`, signed links and batch items may name it.' });
const leaderboardKind = z.literal('leaderboard').meta({ description: 'A leaderboard design: `POST /v1/leaderboard-image` may name it.' });
const kindError = { error: (issue: { code: string }) => (issue.code === 'invalid_union' ? `must be one of ${TEMPLATE_KINDS.map((kind) => `'${kind}'`).join(', ')}` : undefined) };

/** What a template is made from: its kind (`profile` when not given) decides which fields its design may hold. */
const templateBodySchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ name: nameSchema, kind: profileKind.optional(), fields: profileTemplateFieldsSchema }),
    z.strictObject({ name: nameSchema, kind: leaderboardKind, fields: leaderboardTemplateFieldsSchema }),
  ],
  kindError,
);

const stored = {
  id: z.string().regex(TEMPLATE_ID).meta({ description: 'Name it as `template` in a card request of its kind (POST, link or batch item for `profile`, POST for `leaderboard`).' }),
  name: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};
const templateSchema = z.discriminatedUnion('kind', [
  z.object({ ...stored, kind: profileKind, fields: profileTemplateFieldsSchema }),
  z.object({ ...stored, kind: leaderboardKind, fields: leaderboardTemplateFieldsSchema }),
]);

const idParams = z.object({ id: z.string().regex(TEMPLATE_ID, { error: 'must be a template id (tpl_ and 12 lowercase letters or digits)' }).meta({ examples: ['tpl_3k9x2m7q1c0z'] }) });

const TEMPLATE_EXAMPLE = {
  id: 'tpl_3k9x2m7q1c0z',
  name: 'Welcome, dark',
  kind: 'profile',
  fields: { layout: 'welcome', headline: 'Welcome', borderColor: '#5865F2', backgroundBrightness: 60 },
  createdAt: '2024-06-15T12:00:00.000Z',
  updatedAt: '2024-06-15T12:00:00.000Z',
};

const publicView = ({ id, name, kind, fields, createdAt, updatedAt }: CardTemplate) => ({ id, name, kind, fields, createdAt, updatedAt });

const common = { tags: ['Templates'], authenticated: true, scope: 'cards' as const };

/** Every template operation reads or writes the account store: when it is away, the API's 503 (never a 500). */
const STORE_AWAY = { description: '`store_unavailable`: the account store (Redis, or the SQLite database file) is not answering, or the database file was deleted, replaced or made unwritable; nothing was changed.', retryAfter: true } as const;

/** `/v1/templates` and `/v1/templates/{id}`: the saved card designs of the key's account. */
export function templateEndpoints(dependencies: TemplateDependencies) {
  const { store } = dependencies;
  const limitOf = async (accountId: string) => {
    const account = await store.getAccount(accountId);
    const plan = planOf(dependencies.plans, account?.plan ?? dependencies.plans.defaultPlan.name);
    return { plan, limit: templatesAllowed(plan) };
  };
  const now = () => new Date(dependencies.clock.now()).toISOString();
  return [
    defineEndpoint({
      ...common,
      operationId: 'createTemplate',
      methods: ['POST'],
      path: '/v1/templates',
      summary: 'Save a card design as a template',
      description:
        "Saves a card design under a new id in the key's account; every key of the account can then name it as `template` in a card request of its `kind`, whose own fields add to or override the template's: a `profile` design (the default) in `POST /v1/profile-image`, a signed link's `o` or a batch item, a `leaderboard` design (the board's title, score label, colours and format, without its rows) in `POST /v1/leaderboard-image`. A template named by a request of the other kind is `422 template_kind_mismatch`. Each plan keeps a bounded number of templates, both kinds together (25 unless `PLANS` says `templates=<n>`); one more is `409 template_limit_reached`.",
      body: templateBodySchema,
      bodyExample: { name: TEMPLATE_EXAMPLE.name, fields: TEMPLATE_EXAMPLE.fields },
      responses: {
        201: { description: 'Saved; `Location` names it.', schema: templateSchema, example: TEMPLATE_EXAMPLE, headers: { Location: 'The template\'s path, `/v1/templates/{id}`.' } },
        409: { description: "`template_limit_reached`: the account keeps as many templates as its plan allows." },
        503: STORE_AWAY,
      },
      handle: async ({ body, request }) => {
        const accountId = request.key!.accountId;
        const { plan, limit } = await limitOf(accountId);
        const at = now();
        const template: CardTemplate = { id: `tpl_${randomText(ID_ALPHABET, 12)}`, accountId, name: body.name, kind: body.kind ?? 'profile', fields: body.fields, createdAt: at, updatedAt: at };
        // 62 bits of id: a collision is as good as impossible, and then it is a 409 too rather than an overwrite.
        if (!(await store.createTemplate(template, limit))) throw templateLimitError(limit, plan.name);
        return new Reply(201, publicView(template), { Location: `/v1/templates/${template.id}` });
      },
    }),
    defineEndpoint({
      ...common,
      operationId: 'listTemplates',
      methods: ['GET'],
      path: '/v1/templates',
      summary: "The account's templates",
      description: "Every template of the key's account, oldest first, and how many the plan allows.",
      responses: {
        200: {
          description: 'The templates.',
          schema: z.object({ templates: z.array(templateSchema), limit: z.number().int().min(0).meta({ description: 'Templates the plan allows.' }) }),
          example: { templates: [TEMPLATE_EXAMPLE], limit: 25 },
        },
        503: STORE_AWAY,
      },
      handle: async ({ request }) => {
        const accountId = request.key!.accountId;
        const [templates, { limit }] = await Promise.all([store.listTemplates(accountId), limitOf(accountId)]);
        return { templates: templates.map(publicView), limit };
      },
    }),
    defineEndpoint({
      ...common,
      operationId: 'getTemplate',
      methods: ['GET'],
      path: '/v1/templates/{id}',
      summary: 'One template',
      description: "A template of the key's account. Another account's template is `404`, exactly as one that does not exist.",
      params: idParams,
      responses: { 200: { description: 'The template.', schema: templateSchema, example: TEMPLATE_EXAMPLE }, 404: { description: "`template_not_found`: the account has no template of that id." }, 503: STORE_AWAY },
      handle: async ({ params, request }) => {
        const template = await store.getTemplate(request.key!.accountId, params.id);
        if (!template) throw templateNotFoundError('path', 'id');
        return publicView(template);
      },
    }),
    defineEndpoint({
      ...common,
      operationId: 'updateTemplate',
      methods: ['PUT'],
      path: '/v1/templates/{id}',
      summary: 'Replace a template',
      description:
        "Replaces the template's name, kind and fields (the whole design: fields left out are gone, and a body without `kind` makes a `profile` design). Cards drawn from it afterwards use the new design; signed links naming it show it within 5 minutes (they are cached that long).",
      params: idParams,
      body: templateBodySchema,
      bodyExample: { name: TEMPLATE_EXAMPLE.name, fields: TEMPLATE_EXAMPLE.fields },
      responses: { 200: { description: 'The template as stored now.', schema: templateSchema, example: TEMPLATE_EXAMPLE }, 404: { description: "`template_not_found`: the account has no template of that id." }, 503: STORE_AWAY },
      handle: async ({ params, body, request }) => {
        const template = await store.updateTemplate(request.key!.accountId, params.id, { name: body.name, kind: body.kind ?? 'profile', fields: body.fields, updatedAt: now() });
        if (!template) throw templateNotFoundError('path', 'id');
        return publicView(template);
      },
    }),
    defineEndpoint({
      ...common,
      operationId: 'deleteTemplate',
      methods: ['DELETE'],
      path: '/v1/templates/{id}',
      summary: 'Delete a template',
      description: 'Deletes the template. Card requests naming it are `404 template_not_found` from then on; cards already drawn from it stay.',
      params: idParams,
      responses: { 204: { description: 'Deleted.' }, 404: { description: "`template_not_found`: the account has no template of that id." }, 503: STORE_AWAY },
      handle: async ({ params, request }) => {
        if (!(await store.deleteTemplate(request.key!.accountId, params.id))) throw templateNotFoundError('path', 'id');
        return new Reply(204, undefined);
      },
    }),
  ];
}
