import type { EndpointDefinition } from '../../http/endpoint.ts';

/**
 * The playground's previews while signed in: the card operation itself (same schema, queue, budgets
 * per card and answers), entered with the session instead of a key. Its lane in the render queue is
 * the account's preview lane (`preview_<account>`), it spends the account's own preview budget, not
 * a bot's, and it is usage of no key; each preview drawn is a card of the account's monthly cards
 * quota (the card admission's one rule), given back when it is not drawn.
 */
export function playgroundPreviewEndpoint(card: EndpointDefinition): EndpointDefinition {
  const { scope: _keyScope, ...operation } = card;
  return {
    ...operation,
    operationId: 'previewProfileImage',
    path: '/account/api/preview/profile-image',
    summary: 'Preview a card',
    tags: ['Playground'],
    authenticated: false,
    session: { signedIn: 'required', asKey: { idPrefix: 'preview', name: 'playground preview' } },
    limits: { budget: 'preview', holdsCardSlot: true },
  };
}
