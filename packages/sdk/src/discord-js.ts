/**
 * The discord.js helper, its own entry point (`@utility-api/client/discord.js`) so the core client
 * never loads discord.js: it is an optional peer dependency, needed only by bots importing this.
 */
import { AttachmentBuilder, GuildMember, type User } from 'discord.js';
import type { UtilityApiClient } from './client.ts';
import type { CardOptions } from './types.ts';

/**
 * Draws the card of a member (or user) and wraps it for `channel.send({ files: [...] })`, with the
 * card's alt text as the attachment's description (what Discord shows to screen readers). A member
 * with a server nickname is drawn with it unless `card.customUsername` says otherwise.
 */
export async function cardAttachment(client: UtilityApiClient, who: GuildMember | User, card: CardOptions = {}): Promise<AttachmentBuilder> {
  const nickname = who instanceof GuildMember ? who.nickname : null;
  const options = nickname !== null && card.customUsername === undefined ? { ...card, customUsername: nickname } : card;
  const image = await client.profileImageBytes(who.id, options);
  const extension = image.contentType.replace(/^image\//, '').replace(/;.*$/, '');
  return new AttachmentBuilder(Buffer.from(image.bytes), { name: `card.${extension}`, description: image.altText });
}
