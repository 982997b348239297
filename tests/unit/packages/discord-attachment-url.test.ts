/**
 * Discord attachment URLs expire after about a day: refused where a card is drawn again later
 * (templates, card links: their HTTP tests are in tests/card-links), taken by a one-shot card.
 */
import { cardOptionsSchema, DISCORD_ATTACHMENT_URL_REFUSAL, discordAttachmentUrlProblems, isDiscordAttachmentUrl } from '@utility-api/render-jobs';
import test from 'ava';

test('what counts as a Discord attachment URL', (t) => {
  for (const url of [
    'https://cdn.discordapp.com/attachments/1/2/a.png?ex=1&is=2&hm=3',
    'https://media.discordapp.net/attachments/1/2/a.png',
    'https://CDN.DiscordApp.com/Attachments/1/2/a.png',
    'https://cdn.discordapp.com./attachments/1/2/a.png',
    'http://cdn.discordapp.com/ephemeral-attachments/1/2/a.png',
  ]) {
    t.true(isDiscordAttachmentUrl(url), url);
  }
  for (const url of [
    'https://cdn.discordapp.com/avatars/1/a_b.png',
    'https://cdn.discordapp.com/banners/1/abc.png',
    'https://cdn.discordapp.com/avatar-decoration-presets/a.png',
    'https://example.com/attachments/a.png',
    'https://cdn.discordapp.com.example.com/attachments/a.png',
    'not a url',
  ]) {
    t.false(isDiscordAttachmentUrl(url), url);
  }
});

test('the problems name each field, badges by index, and say why', (t) => {
  const attachment = 'https://cdn.discordapp.com/attachments/1/2/a.png';
  t.deepEqual(discordAttachmentUrlProblems({ customBackground: attachment, customAvatar: 'https://example.com/a.png', customBadges: ['https://example.com/b.png', attachment] }), [
    { path: ['customBackground'], message: DISCORD_ATTACHMENT_URL_REFUSAL },
    { path: ['customBadges', 1], message: DISCORD_ATTACHMENT_URL_REFUSAL },
  ]);
  t.regex(DISCORD_ATTACHMENT_URL_REFUSAL, /expire after about a day/);
});

test('a one-shot card body takes one: the card fetches it at once', (t) => {
  t.true(cardOptionsSchema.safeParse({ customBackground: 'https://cdn.discordapp.com/attachments/1/2/a.png?ex=1&is=2&hm=3' }).success);
});
