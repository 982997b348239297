import { runKeysCli } from './keys/keys-cli.ts';

/** `pnpm keys`: create, list and revoke managed API keys (see `pnpm keys --help`). */
process.exitCode = await runKeysCli(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
