/**
 * `node --import ./tests/docs/fake-discord-hooks.ts <bot>`: the bot's own `import ... from
 * 'discord.js'` gets fake-discord-js.ts; everything else (the SDK's helper included, which builds
 * real AttachmentBuilders) gets the real discord.js.
 */
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

const fake = pathToFileURL(new URL('fake-discord-js.ts', import.meta.url).pathname).href;
const examples = process.env.FAKE_DISCORD_FOR;

registerHooks({
  resolve(specifier, context, next) {
    if (specifier === 'discord.js' && examples !== undefined && context.parentURL?.startsWith(pathToFileURL(examples).href)) {
      return { url: fake, shortCircuit: true };
    }
    return next(specifier, context);
  },
});
