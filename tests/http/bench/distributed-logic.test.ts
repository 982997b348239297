import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { distributedReport, distributedSettingsFromArgs, type DistributedMeasurement, type RateWindow } from '../../../scripts/bench/distributed.ts';
import { startPacedLoop } from '../../../scripts/bench/window-load.ts';

test('the distributed bench reads two offered rates, the lower first, and refuses anything else', (t) => {
  const defaults = distributedSettingsFromArgs([]);
  t.deepEqual(defaults.rates, [60, 180]);
  t.false(defaults.perGateway);
  t.false(defaults.observer);
  const given = distributedSettingsFromArgs(['--rates=30,90', '--per-gateway', '--observer', '--idle=12', '--gateways=1,4']);
  t.deepEqual(given.rates, [30, 90]);
  t.true(given.perGateway);
  t.true(given.observer);
  t.is(given.idleSeconds, 12);
  t.deepEqual(given.gatewayCounts, [1, 4]);
  for (const bad of ['--rates=90,30', '--rates=60', '--rates=60,60', '--rates=60,180,300', '--rates=0,60']) t.throws(() => distributedSettingsFromArgs([bad]), undefined, bad);
});

const rateWindow = (cardsPerSecond: number, allGatewaysMsPerCard: number): RateWindow => ({
  offeredPerSecond: cardsPerSecond,
  cardsPerSecond,
  p50Ms: 5,
  p95Ms: 9,
  gatewayMsPerCard: [allGatewaysMsPerCard],
  allGatewaysMsPerCard,
  allGatewaysNetMsPerCard: allGatewaysMsPerCard,
  loadAverage: 1,
});

/** A run whose gateways spend `fixed` ms/s each and `perCard` ms on each card: their CPU per card at 60 and 180 cards/s. */
function run(gateways: number, shards: number, fixed: number, perCard: number, redisMs: number[]): DistributedMeasurement {
  const at = (rate: number) => rateWindow(rate, perCard + (fixed * gateways) / rate);
  const high = at(180);
  const total = redisMs.reduce((sum, value) => sum + value, 0);
  return {
    round: 1,
    gateways,
    shards,
    fixedMsPerSecond: Array.from({ length: gateways }, () => fixed),
    windows: [at(60), high],
    marginalMsPerCard: (high.allGatewaysMsPerCard * 180 - at(60).allGatewaysMsPerCard * 60) / 120,
    cards: 1440,
    cardsPerSecond: 180,
    gatewayMsPerCard: high.gatewayMsPerCard,
    allGatewaysMsPerCard: high.allGatewaysMsPerCard,
    redisMsPerCard: redisMs,
    redisShares: redisMs.map((value) => value / total),
    commandsPerCard: 70,
    commandsPerCardByShard: redisMs.map(() => 70 / redisMs.length),
    topCommands: [],
    impliedCeiling: 1000 / Math.max(...redisMs),
  };
}

test('the gateway verdict is judged on the marginal CPU per card, so fixed work per gateway does not fail it', (t) => {
  // 30 ms/s of fixed work per gateway makes 4 gateways cost far more per card at 60 cards/s, yet each card costs the same.
  const flat = [run(1, 1, 30, 1, [0.5]), run(2, 1, 30, 1.05, [0.5]), run(4, 1, 30, 1.1, [0.5])];
  t.true(flat[2]!.windows[0].allGatewaysMsPerCard > 2 * flat[0]!.windows[0].allGatewaysMsPerCard);
  t.regex(distributedReport(flat), /1 shard\(s\): marginal CPU per card from 1 to 4 gateways 1\.00 → 1\.05 → 1\.10 ms, at most 10 % from 1: PASS/);
  const growing = [run(1, 1, 30, 1, [0.5]), run(4, 1, 30, 1.3, [0.5])];
  t.regex(distributedReport(growing), /at most 30 % from 1: MISS/);
});

test('each master share of Redis CPU is judged against an even share, every window', (t) => {
  t.regex(distributedReport([run(1, 3, 5, 1, [0.3, 0.33, 0.37]), run(2, 3, 5, 1, [0.31, 0.33, 0.36])]), /3 shard\(s\): each master's share of Redis CPU 30–37 %.*: PASS/);
  t.regex(distributedReport([run(1, 3, 5, 1, [0.2, 0.3, 0.5])]), /share of Redis CPU 20–50 % over every window, at most 50 % from 33\.3 %: MISS/);
});

test('a run that fell behind an offered rate is left out of the table and the verdicts, and named', (t) => {
  const behind = run(4, 1, 30, 5, [0.5]);
  behind.windows[1] = { ...behind.windows[1], cardsPerSecond: 81 };
  const report = distributedReport([run(1, 1, 30, 1, [0.5]), behind, run(4, 1, 30, 1.05, [0.5])]);
  t.regex(report, /from 1 to 4 gateways 1\.00 → 1\.05 ms.*PASS/);
  t.regex(report, /left out, answered under 90 % of an offered rate: round 1 1 shard\(s\) 4 gateway\(s\) \(60 of 60, 81 of 180 cards\/s\)/);
});

test('the paced loop sends distinct bodies with the headers of each request, and stop waits for every answer', async (t) => {
  const received: { body: string; key: string | undefined }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ body, key: request.headers.authorization });
      response.setHeader('X-Card-Render', 'new');
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const { port } = server.address() as AddressInfo;
  const loop = startPacedLoop({ url: `http://127.0.0.1:${port}/`, headers: (sequence) => ({ Authorization: `key-${sequence % 3}` }), body: (sequence) => `card #${sequence}`, requestsPerSecond: 200, requestTimeoutMs: 10_000 });
  while (received.length < 12) await new Promise((resolve) => setImmediate(resolve));
  await loop.stop();
  t.is(loop.samples.length, received.length);
  t.true(loop.samples.every((sample) => sample.status === '200' && sample.render === 'new'));
  t.is(new Set(received.map((request) => request.body)).size, received.length);
  for (const request of received) t.is(request.key, `key-${Number(/#(\d+)/.exec(request.body)![1]) % 3}`);
});
