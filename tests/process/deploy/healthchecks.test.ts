import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { promisify } from 'node:util';
import test from 'ava';
import { freePort } from '../../helpers/processes.ts';
import { readComposeFile } from '../../support/deploy/compose-file.ts';
import { execForm, finalStage, instructionsOf, readDockerfile } from '../../support/deploy/dockerfile.ts';
import { IMAGES } from '../../support/deploy/images.ts';

const run = promisify(execFile);

let healthStatus = 200;
let server: Server;
let port: number;

test.before(async () => {
  server = createServer((request, response) => {
    response.writeHead(request.url === '/healthz' ? healthStatus : 404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as { port: number }).port;
});

test.after.always(async () => {
  server.close();
  await once(server, 'close');
});

/** Runs a `CMD ["node", ...]` healthcheck the way Docker would, with the container's port variable. */
async function healthcheckExitCode(command: string[], env: Record<string, string>): Promise<number> {
  const [program, ...args] = command;
  if (program !== 'node') throw new Error(`healthcheck runs ${program}, not node`);
  try {
    await run(process.execPath, args, { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 20_000 });
    return 0;
  } catch (error) {
    return (error as { code?: number }).code ?? -1;
  }
}

for (const image of IMAGES) {
  const command = execForm(instructionsOf(finalStage(readDockerfile(image.dockerfile)), 'HEALTHCHECK')[0]!.text);

  // Serial: the tests share the fake service and switch its answer.
  test.serial(`${image.service}: the image healthcheck passes on 200 and fails on 503 or a closed port`, async (t) => {
    healthStatus = 200;
    t.is(await healthcheckExitCode(command, { [image.portVariable]: String(port) }), 0);
    healthStatus = 503;
    t.is(await healthcheckExitCode(command, { [image.portVariable]: String(port) }), 1);
    healthStatus = 200;
    const closed = await freePort();
    t.is(await healthcheckExitCode(command, { [image.portVariable]: String(closed) }), 1);
  });

  test(`${image.service}: compose runs the image's healthcheck command`, (t) => {
    const composeTest = readComposeFile().services[image.service]?.healthcheck?.test;
    t.deepEqual(composeTest, ['CMD', ...command]);
  });
}
