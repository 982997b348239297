import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import test from 'ava';
import { freeLoopbackPort } from '../../../scripts/local-stack/local-stack.ts';
import { startRedisServer } from '../../../scripts/local-stack/redis-server.ts';

/** A port some other process holds while Redis is started. */
async function takenPort(): Promise<{ port: number; holder: Server }> {
  const holder = createServer();
  holder.listen(0, '127.0.0.1');
  await once(holder, 'listening');
  return { port: (holder.address() as { port: number }).port, holder };
}

test('a port another process took between the choice and the bind is chosen again, for the client port and for a cluster bus', async (t) => {
  const { port: taken, holder } = await takenPort();
  t.teardown(() => holder.close());
  for (const clusterNode of [false, true]) {
    const chosen: number[] = [];
    // The first choice is the taken port, the later ones are free.
    const choosePort = async () => {
      const port = chosen.length === 0 ? taken : await freeLoopbackPort();
      chosen.push(port);
      return port;
    };
    const redis = await startRedisServer({ choosePort, clusterNode });
    t.teardown(() => redis.stop());
    t.not(redis.port, taken);
    t.is(chosen.length, clusterNode ? 4 : 2, `ports chosen: ${chosen.join(', ')}`);
    t.true(redis.url.endsWith(`:${redis.port}`));
  }
});

test('a given port that is taken fails at once with what redis-server said: no other port is tried', async (t) => {
  const { port, holder } = await takenPort();
  t.teardown(() => holder.close());
  let choices = 0;
  const error = await t.throwsAsync(startRedisServer({ port, choosePort: async () => ((choices += 1), freeLoopbackPort()) }));
  t.regex(error.message, /Address already in use/);
  t.is(choices, 0);
});
