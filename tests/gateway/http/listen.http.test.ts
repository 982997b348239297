import { Lifecycle } from '@utility-api/infra';
import test from 'ava';
import { listen } from '../../../services/gateway/src/server.ts';

test('a request that arrives while the app is still being built waits for it instead of going unanswered', async (t) => {
  const lifecycle = new Lifecycle();
  t.teardown(() => lifecycle.shutdown(5000));
  const { port, serve } = await listen({ port: 0, host: '127.0.0.1', headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 }, lifecycle);
  const early = fetch(`http://127.0.0.1:${port}/early`);
  // Give the request time to reach the server before there is an app to answer it.
  await new Promise((resolve) => setTimeout(resolve, 200));
  serve(async (request, response) => {
    response.end(`served ${request.url}`);
  });
  const answer = await early;
  t.is(answer.status, 200);
  t.is(await answer.text(), 'served /early');
  const late = await fetch(`http://127.0.0.1:${port}/late`);
  t.is(await late.text(), 'served /late', 'requests after serve go straight to the app');
});
