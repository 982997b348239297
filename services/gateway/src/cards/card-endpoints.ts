import type { EndpointDefinition } from '../http/endpoint.ts';
import { cardLinkEndpoint, type CardLinkDependencies } from './card-link/endpoint.ts';
import { leaderboardImageEndpoints } from './leaderboard-image/endpoint.ts';
import { profileImageEndpoints } from './profile-image/endpoint.ts';
import { profileImageBatchEndpoint, type CardAccounting } from './profile-image-batch/endpoint.ts';

export type CardEndpointsDependencies = CardLinkDependencies & { accounting: CardAccounting };

/**
 * Every endpoint that draws a card, in the order they are routed: they share the render queue, the
 * store and the per-key card slots. The batch comes before `/v1/profile-image/{userId}`, which
 * would otherwise read `batch` as a user id.
 */
export function cardEndpoints(dependencies: CardEndpointsDependencies): EndpointDefinition[] {
  return [
    profileImageBatchEndpoint(dependencies),
    ...profileImageEndpoints(dependencies),
    ...leaderboardImageEndpoints(dependencies),
    cardLinkEndpoint(dependencies),
  ];
}
