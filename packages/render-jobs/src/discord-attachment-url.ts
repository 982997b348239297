/**
 * Discord attachment URLs (`https://cdn.discordapp.com/attachments/...`,
 * `https://media.discordapp.net/attachments/...`, and the `ephemeral-attachments` of interaction
 * replies) are signed to expire after about a day (`ex=`, `is=`, `hm=` in the query). A card drawn
 * now fetches one while it is valid, so a one-shot card takes it; an option kept to draw the card
 * again later (a template's fields, a signed card link's `o`, drawn on its first fetch and again
 * when its stored copy is gone) would break a day later, so there it is refused with a 400 that
 * says why.
 */
const ATTACHMENT_HOSTS = new Set(['cdn.discordapp.com', 'media.discordapp.net']);
const ATTACHMENT_PATH = /^\/(ephemeral-)?attachments\//i;

export const DISCORD_ATTACHMENT_URL_REFUSAL =
  'must not be a Discord attachment URL (cdn.discordapp.com or media.discordapp.net /attachments/...): Discord makes those links expire after about a day, and this card is drawn again later from the URL; host the image where it stays (or send it in a one-shot POST /v1/profile-image, which fetches it at once)';

export function isDiscordAttachmentUrl(text: string): boolean {
  const url = URL.parse(text);
  return url !== null && ATTACHMENT_HOSTS.has(url.hostname.toLowerCase().replace(/\.$/, '')) && ATTACHMENT_PATH.test(url.pathname);
}

/** Each image URL field of `options` (customBackground, customAvatar, each of customBadges) that is a Discord attachment URL. */
export function discordAttachmentUrlProblems(options: { customBackground?: string | undefined; customAvatar?: string | undefined; customBadges?: readonly string[] | undefined }): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  for (const field of ['customBackground', 'customAvatar'] as const) {
    const value = options[field];
    if (value !== undefined && isDiscordAttachmentUrl(value)) problems.push({ path: [field], message: DISCORD_ATTACHMENT_URL_REFUSAL });
  }
  for (const [index, badge] of (options.customBadges ?? []).entries()) {
    if (isDiscordAttachmentUrl(badge)) problems.push({ path: ['customBadges', index], message: DISCORD_ATTACHMENT_URL_REFUSAL });
  }
  return problems;
}
