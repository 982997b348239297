import { runKeysCli } from './accounts/keys-cli.ts';

/** `./run keys` (in the gateway image: `node src/keys-main.ts`): create, list and revoke managed API keys (see `./run keys --help`). */
process.exitCode = await runKeysCli(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
