import { Readable } from 'node:stream';
import { StorageUnavailableError, type MediaObject } from '@utility-api/media-store';
import { discordAttachmentUrlProblems, MEDIA_FORMATS, renderJobId, type MediaFormat } from '@utility-api/render-jobs';
import { z } from 'zod';
import type { CardLinkRender } from '../../accounts/account-model.ts';
import type { AccountStore } from '../../accounts/account-store.ts';
import type { ApiKeyIdentity } from '../../auth/api-keys.ts';
import type { ApiKeyVerifier } from '../../auth/key-verifier.ts';
import {
  CARD_LINK_PATH,
  cardLinkSignatureMatches,
  decodeCardLinkOptions,
  MAX_CARD_LINK_OPTIONS_CHARS,
  parseCardLinkQuery,
} from './card-link-signature.ts';
import { cardLinkExpiredError, cardLinkInvalidError, cardLinkRevokedError, problemsFromZod, storageUnavailableError, validationError } from '../../http/api-error.ts';
import { systemClock, type Clock } from '../../runtime/clock.ts';
import { defineEndpoint, Reply, type Admission, type AdmissionRequest, type HeaderValue } from '../../http/endpoint.ts';
import { queueErrorToApiError, renderFailureToApiError, rfc8187, storedImageReply } from '../card-answers.ts';
import { cardRequestSchemas, type ProfileImageBody, type CardEndpointDependencies } from '../card-request.ts';

export interface CardLinkDependencies extends CardEndpointDependencies {
  keys: Pick<ApiKeyVerifier, 'linkSigner'>;
  /** Where each link's stored card is remembered, and the templates links may name. */
  store: Pick<AccountStore, 'cardLinkRender' | 'putCardLinkRender' | 'getTemplate'>;
}

/** A year: what `immutable` caching means in practice (RFC 8246 gives no other bound). */
const IMMUTABLE_SECONDS = 31_536_000;
/**
 * A link naming a template shows the template as it is when the card is drawn, so an edit must
 * reach clients that saw the link before it: they keep it this long, then revalidate (and get a
 * 304 while nothing changed).
 */
const TEMPLATE_LINK_MAX_AGE_SECONDS = 300;

/** The checked card request a link stands for, handed from `admit` to the handler. */
interface LinkCard {
  key: ApiKeyIdentity;
  userId: string;
  body: ProfileImageBody;
  jobId: string;
  cacheControl: string;
}

const signedQuerySchema = z.object({
  v: z.literal('1').meta({ description: 'The scheme version: `1`. First in the query.' }),
  k: z.string().meta({ description: "The signing key's public id: `uk_live_<id>` (the start of a managed key), or `key_<first 12 hex digits of SHA-256(key)>` for a key from `API_KEYS`.", examples: ['uk_live_abcd1234'] }),
  u: z.string().meta({ description: 'The Discord user id (17 to 20 digits), as `userId` of `POST /v1/profile-image`.', examples: ['302050872383242240'] }),
  o: z.string().max(MAX_CARD_LINK_OPTIONS_CHARS).optional().meta({ description: 'Optional: the POST body (any profile-image body field, `template` included) as JSON in base64url without padding.' }),
  e: z.string().optional().meta({ description: 'Optional: when the link expires, in Unix seconds (then `410`).' }),
  s: z.string().meta({ description: 'HMAC-SHA256 of the query before `&s=`, keyed with SHA-256 of the API key, as 64 lowercase hex digits.' }),
});

const DESCRIPTION = [
  'A card as an image from a link a bot signs itself, offline, with its API key: put it straight into an embed (`setImage(url)`).',
  'No `Authorization` header: the link is its own credential. The scheme (the signed text, its encoding, a test vector) is in',
  '`docs/card-links.md`; the SDKs build links with `cardUrl` (TypeScript) and `card_url` (Python).',
  'The first fetch draws the card exactly as `POST /v1/profile-image` would (same fields, the same queue, fairness and deadline),',
  "as a request and a card of the key's account: its scope, monthly quota, profile-image budget and cards in flight apply.",
  'Later fetches of the same card (the same key, user and fields; the expiry does not matter) are streamed from storage without',
  'a render and cost nothing: no request, no card, no budget, as `/media` costs nothing.',
  '`X-Card-Render` says `new` (drawn for this fetch) or `reused` (stored, or shared with an identical request).',
  'The answer is the image: PNG, or the `format` field asks; with `animated: true` an animated WebP (GIF with `format: "gif"`) when',
  'the design moves. It carries `Content-Type`, `Content-Length`, a strong `ETag` (`If-None-Match` answers `304`) and',
  `\`Cache-Control: public, max-age=${IMMUTABLE_SECONDS}, immutable\` (up to the link's expiry when it has one; a link naming a`,
  `template is kept ${TEMPLATE_LINK_MAX_AGE_SECONDS} s, so a template edit shows).`,
  'Refusals are JSON: `403 card_link_invalid` for any changed character (or an unknown key), `410 card_link_expired`,',
  '`403 card_link_revoked` once the key is revoked (403, not 401: no header would help).',
  'A Discord attachment URL (`cdn.discordapp.com` or `media.discordapp.net` `/attachments/...`) as `customBackground`, `customAvatar`',
  'or a `customBadges` entry is a `400` naming it (`o.customBackground`): Discord makes those links expire after about a day, and a',
  "link's card is drawn again from its URL whenever its stored copy is gone; `POST /v1/profile-image` takes them (it fetches at once).",
].join(' ');

/** The image answer's headers, stored or just drawn. */
function imageHeaders(card: LinkCard, render: CardLinkRender, reused: boolean, publicBaseUrl: string) {
  return {
    'Cache-Control': card.cacheControl,
    'Cross-Origin-Resource-Policy': 'cross-origin',
    'Content-Location': `${publicBaseUrl}/media/${render.mediaKey}.${render.format}`,
    'X-Alt-Text': rfc8187(render.altText),
    'X-Card-Render': reused ? 'reused' : 'new',
    ...(render.frames === undefined ? {} : { 'X-Card-Frames': String(render.frames) }),
  };
}

/** Whether `If-None-Match` names the entity tag (or `*`): weak comparison, as RFC 9110 §13.1.2 asks for GET. */
function noneMatch(header: HeaderValue, etag: string): boolean {
  if (typeof header !== 'string' || header === '') return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/** `GET /v1/card-link`: a signed link's card, drawn on its first fetch and stored for the next. */
export function cardLinkEndpoint(dependencies: CardLinkDependencies) {
  const clock: Clock = dependencies.clock ?? systemClock;
  const { userId: userIdSchema, resolve, checkDiscordIds } = cardRequestSchemas(clock);

  /**
   * The stored card of a link fetched before, answered without a render and streamed from the media
   * store (disk or S3); undefined when there is none (or its days in storage are up). A conditional
   * request and a HEAD need only the metadata: no stream is opened for them.
   */
  const storedAnswer = async (card: LinkCard, { method, headers }: AdmissionRequest): Promise<Reply<unknown> | undefined> => {
    const render = await dependencies.store.cardLinkRender(card.jobId, new Date(clock.now()));
    if (!render) return undefined;
    const format = render.format as MediaFormat;
    const described = (object: MediaObject) => ({ ...imageHeaders(card, render, true, dependencies.publicBaseUrl), ETag: object.etag, 'Content-Type': object.contentType, 'Content-Length': String(object.size) });
    try {
      const ifNoneMatch = headers['if-none-match'];
      const conditional = typeof ifNoneMatch === 'string' && ifNoneMatch !== '';
      if (conditional || method === 'HEAD') {
        const object = await dependencies.media.stat(render.mediaKey, format);
        if (!object) return undefined;
        if (conditional && noneMatch(ifNoneMatch, object.etag)) return new Reply(304, undefined, { ...imageHeaders(card, render, true, dependencies.publicBaseUrl), ETag: object.etag });
        // HTTP never sends a HEAD answer's body: an empty stream keeps the stored image's length and type in the headers.
        if (method === 'HEAD') return new Reply<Readable>(200, Readable.from([]), described(object));
      }
      const opened = await dependencies.media.open(render.mediaKey, format);
      if (!opened) return undefined;
      return new Reply<Readable>(200, opened.body, described(opened.object));
    } catch (error) {
      if (error instanceof StorageUnavailableError) throw storageUnavailableError();
      throw error;
    }
  };

  const admit = async (request: AdmissionRequest): Promise<Admission> => {
    const { query } = request;
    const link = parseCardLinkQuery(query);
    if (!link) throw cardLinkInvalidError();
    const signer = await dependencies.keys.linkSigner(link.keyId);
    if (!signer || !cardLinkSignatureMatches(link, signer.signingKeys)) throw cardLinkInvalidError();
    if (signer.revoked) throw cardLinkRevokedError();
    if (link.expiresAt !== undefined && link.expiresAt * 1000 <= clock.now()) throw cardLinkExpiredError(link.expiresAt);

    // Signed by the key's holder: from here on a bad field is the signer's mistake, a 400 naming it.
    const options = link.encodedOptions === undefined ? {} : decodeCardLinkOptions(link.encodedOptions);
    if (options === undefined) throw validationError([{ in: 'query', field: 'o', message: 'must be a JSON object in base64url' }]);
    const userId = userIdSchema.safeParse(link.userId);
    if (!userId.success) throw validationError(problemsFromZod(userId.error, 'query').map((problem) => ({ ...problem, field: 'u' })));
    const body = await resolve(dependencies.store, signer.identity.accountId, options, 'query', 'o.');
    checkDiscordIds(userId.data, body, 'query', 'o.');
    // A link's card is drawn on its first fetch and again when its stored copy is gone, long after
    // a Discord attachment URL in it has expired: refused, saying why (discord-attachment-url.ts).
    const attachments = discordAttachmentUrlProblems(body);
    if (attachments.length > 0) throw validationError(attachments.map((problem) => ({ in: 'query', field: `o.${problem.path.join('.')}`, message: problem.message })));
    const { format, template, ...cardOptions } = body;
    // The job id POST gives the same card: a link and a POST of one card share its render.
    const jobId = renderJobId({ userId: userId.data, options: cardOptions, format }, signer.identity.id);
    const maxAge = Math.min(
      template === undefined ? IMMUTABLE_SECONDS : TEMPLATE_LINK_MAX_AGE_SECONDS,
      link.expiresAt === undefined ? IMMUTABLE_SECONDS : Math.max(0, Math.floor(link.expiresAt - clock.now() / 1000)),
    );
    const cacheControl = maxAge === IMMUTABLE_SECONDS ? `public, max-age=${IMMUTABLE_SECONDS}, immutable` : `public, max-age=${maxAge}`;
    const card: LinkCard = { key: signer.identity, userId: userId.data, body, jobId, cacheControl };
    // A key without the cards scope is refused by the key's guards, before anything is served.
    const mayServe = signer.identity.scopes === undefined || signer.identity.scopes.includes('cards');
    const stored = mayServe ? await storedAnswer(card, request) : undefined;
    return stored ? { reply: stored } : { key: signer.identity, admitted: card };
  };

  return defineEndpoint({
    operationId: 'getCardLink',
    methods: ['GET'],
    path: CARD_LINK_PATH,
    summary: 'A card from a signed link',
    description: DESCRIPTION,
    tags: ['Profile image'],
    authenticated: true,
    scope: 'cards',
    limits: { budget: 'profileImage', holdsCardSlot: true },
    stopsWhenClientLeaves: true,
    admit,
    query: signedQuerySchema,
    responses: {
      200: {
        description: 'The card image (its type by the link\'s `format` and `animated`).',
        binaryTypes: Object.values(MEDIA_FORMATS),
        headers: {
          'X-Card-Render': '`new` when this fetch drew the card, `reused` when it was stored (or an identical request drew it).',
          ETag: 'Strong entity tag of the image; `If-None-Match` with it answers `304`.',
          'Cache-Control': `\`public, max-age=${IMMUTABLE_SECONDS}, immutable\`; shorter for a link with an expiry (until it) or a template (${TEMPLATE_LINK_MAX_AGE_SECONDS} s).`,
          'Content-Location': 'The public `/media` URL of the same image.',
          'X-Alt-Text': "The card's alt text as an RFC 8187 ext-value.",
        },
      },
      304: { description: '`If-None-Match` names the stored image\'s ETag: nothing changed.' },
      400: { description: 'The link checks out but a field it carries does not: `details` names it (`u`, `o`, or `o.<field>`).' },
      403: { codes: ['card_link_invalid', 'card_link_revoked', 'key_scope_forbidden'], description: 'Any changed character of a link is `card_link_invalid`; a link signed by a key whose scopes lack `cards` (the card operations) is `key_scope_forbidden`.' },
      404: { codes: ['template_not_found'], description: 'The link names a template its key\'s account does not have.' },
      410: { codes: ['card_link_expired'], description: 'Past the link\'s `e`.' },
      422: { codes: ['image_unusable', 'template_kind_mismatch'], description: 'As for `POST /v1/profile-image`: a link draws a profile card, so `o.template` naming a leaderboard design is `template_kind_mismatch`.' },
      503: { description: 'As for `POST /v1/profile-image`; carries `Retry-After`.', retryAfter: true },
      504: { description: '`render_timeout`: no renderer finished in time.' },
    },
    handle: async ({ request }) => {
      const card = request.admitted as LinkCard;
      // No `Accept` to negotiate (Discord's proxy sends its own): the body's format, else PNG, or animated WebP when the card moves.
      const { format, template: _template, ...options } = card.body;
      const { result, reused } = await dependencies.queue
        .render({ userId: card.userId, options, format, requestId: request.requestId }, dependencies.renderTimeoutMs, card.key.id, request.gone)
        .catch((error: unknown) => {
          throw queueErrorToApiError(error, dependencies.renderTimeoutMs);
        });
      if (!result.ok) throw renderFailureToApiError(result.failure);
      const render: CardLinkRender = { mediaKey: result.mediaKey, format: result.format, altText: result.altText, ...(result.animation && { frames: result.animation.frames }) };
      // Kept as long as the image is: past that, the link draws it again.
      await dependencies.store.putCardLinkRender(card.jobId, render, new Date(clock.now() + dependencies.mediaTtlDays * 86_400_000));
      const reply = await storedImageReply(dependencies.media, result, imageHeaders(card, render, reused, dependencies.publicBaseUrl));
      dependencies.onRendered?.(reused);
      return reply;
    },
  });
}
