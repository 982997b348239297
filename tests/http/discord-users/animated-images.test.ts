import { profileImageUrls } from '@utility-api/discord-users';
import test from 'ava';
import sharp from 'sharp';
import { type FakeDiscord, startFakeDiscord } from '../../support/discord-users/fake-discord.ts';
import { addUser, newUserId, profilesFor } from '../../support/discord-users/fixtures.ts';

let fake: FakeDiscord;
test.before(async () => {
  fake = await startFakeDiscord();
});
test.after.always(async () => {
  await fake?.close();
});

/** A two-frame animated WebP, as Discord serves `a_` avatars with `?animated=true`. */
async function animatedWebp(): Promise<Buffer> {
  const frame = 16 * 16 * 4;
  const pixels = Buffer.alloc(frame * 2);
  for (let pixel = 0; pixel < 16 * 16; pixel += 1) {
    pixels.set([255, 0, 0, 255], pixel * 4);
    pixels.set([0, 0, 255, 255], frame + pixel * 4);
  }
  return sharp(pixels, { raw: { width: 16, height: 32, channels: 4, pageHeight: 16 } }).webp({ loop: 0, delay: [100, 100] }).toBuffer();
}

test('animated URLs only for a_ hashes, and only when asked; an animated card asks for the decoration as its APNG (passthrough), a still one for its still PNG', (t) => {
  const user = { id: '1', username: 'u', avatar: 'a_abc', banner: 'def', avatar_decoration_data: { asset: 'a_fed' } };
  t.like(profileImageUrls(user, 'https://cdn.example/', { animated: true }), {
    avatar: 'https://cdn.example/avatars/1/a_abc.webp?size=256&animated=true',
    banner: 'https://cdn.example/banners/1/def.png?size=1024',
    avatarDecoration: 'https://cdn.example/avatar-decoration-presets/a_fed.png?passthrough=true',
  });
  t.like(profileImageUrls(user, 'https://cdn.example/'), { avatar: 'https://cdn.example/avatars/1/a_abc.png?size=256', avatarDecoration: 'https://cdn.example/avatar-decoration-presets/a_fed.png' });
});

test('an animated profile fetches the moving avatar from the CDN, and the still profile keeps the PNG', async (t) => {
  const id = newUserId();
  addUser(fake, { id, username: 'mover', avatar: 'a_1234' });
  const moving = await animatedWebp();
  fake.images.set(`/avatars/${id}/a_1234.webp`, moving);
  const { profiles } = profilesFor(fake);
  const animated = await profiles.resolveProfile(id, { animated: true });
  t.true(animated.avatar?.equals(moving));
  t.is((await sharp(animated.avatar, { animated: true }).metadata()).pages, 2);
  const still = await profiles.resolveProfile(id);
  t.is(still.avatar?.subarray(1, 4).toString('latin1'), 'PNG');
  const paths = fake.cdnRequests().map((request) => request.path).filter((path) => path.includes(id));
  t.deepEqual(paths.sort(), [`/avatars/${id}/a_1234.png?size=256`, `/avatars/${id}/a_1234.webp?size=256&animated=true`]);
  // One user fetch from Discord serves both variants (the user cache is shared).
  t.is(fake.apiRequestsFor(id).length, 1);
});
