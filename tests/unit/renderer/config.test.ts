import { availableParallelism } from 'node:os';
import { ConfigurationError } from '@utility-api/infra';
import test from 'ava';
import { loadRendererConfig } from '../../../services/renderer/src/config.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';

test('a renderer has no pool budget unless RENDER_POOL_MEMORY_MB sets one: a worker per core, 512 MiB each', (t) => {
  const { renderPool } = loadRendererConfig({ REDIS_URL }).rendering;
  t.deepEqual(renderPool, {
    workers: Math.max(1, availableParallelism()),
    memoryLimitBytes: 512 * 1024 * 1024,
    timeBudgetMs: 5000,
    animatedTimeBudgetMs: 18_000,
    wallClockFactor: 4,
  });
  const budgeted = loadRendererConfig({ REDIS_URL, RENDER_POOL_MEMORY_MB: '1024', RENDER_WORKERS: '2' }).rendering.renderPool;
  t.deepEqual([budgeted.poolMemoryLimitBytes, budgeted.memoryLimitBytes, budgeted.animatedAtOnce], [1024 * 1024 * 1024, 512 * 1024 * 1024, 2]);
  const crowded = t.throws(() => loadRendererConfig({ REDIS_URL, RENDER_POOL_MEMORY_MB: '512', RENDER_WORKERS: '3' }), { instanceOf: ConfigurationError });
  t.deepEqual(crowded.problems.map((problem) => problem.variable), ['RENDER_WORKERS']);
});

test("bad variables of every package, and combinations that do not hold, are reported in one error with the renderer's own", (t) => {
  const error = t.throws(
    () =>
      loadRendererConfig({
        RENDER_CONCURRENCY: '0',
        RENDER_WORKER_MEMORY_MB: '128',
        DISCORD_API_BASE_URL: 'discord',
        FETCH_CARD_BUDGET_BYTES: '12',
        MEDIA_TTL_DAYS: 'forever',
        S3_SECRET_KEY: 'secret',
      }),
    { instanceOf: ConfigurationError },
  );
  t.deepEqual(error.problems.map((problem) => problem.variable).sort(), [
    'DISCORD_API_BASE_URL',
    'FETCH_CARD_BUDGET_BYTES',
    'MEDIA_TTL_DAYS',
    'REDIS_URL',
    'RENDER_CONCURRENCY',
    'RENDER_WORKER_MEMORY_MB',
    'S3_ACCESS_KEY',
    'S3_ENDPOINT',
  ]);
});
