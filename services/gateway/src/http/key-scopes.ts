/**
 * The groups an endpoint belongs to, and so what a key may call: the card endpoints, the utility
 * endpoints, or (no scopes given) both. A leaf: keys, accounts and the endpoint machinery all name it.
 */
export const KEY_SCOPES = ['cards', 'utility'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];
