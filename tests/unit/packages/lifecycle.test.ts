import { Lifecycle } from '@utility-api/infra';
import test from 'ava';

test('closes in reverse order of registration', async (t) => {
  const lifecycle = new Lifecycle();
  const order: string[] = [];
  lifecycle.onClose('database', () => void order.push('database'));
  const server = lifecycle.add('server', { name: 'srv' }, async (resource) => {
    order.push(resource.name);
  });
  t.is(server.name, 'srv');
  const report = await lifecycle.shutdown(1000);
  t.deepEqual(order, ['srv', 'database']);
  t.deepEqual(report.closed, ['server', 'database']);
});

test('a failing closer does not stop the others', async (t) => {
  const lifecycle = new Lifecycle();
  const closed: string[] = [];
  lifecycle.onClose('first', () => void closed.push('first'));
  lifecycle.onClose('broken', () => {
    throw new Error('boom');
  });
  const report = await lifecycle.shutdown(1000);
  t.deepEqual(closed, ['first']);
  t.is(report.failed[0]?.name, 'broken');
});

test('a stuck closer is abandoned at the deadline and later ones are reported as timed out', async (t) => {
  const lifecycle = new Lifecycle();
  lifecycle.onClose('late', () => undefined);
  lifecycle.onClose('stuck', () => new Promise<void>(() => {}));
  const deadlineMs = 200;
  const started = Date.now();
  const report = await lifecycle.shutdown(deadlineMs);
  t.true(Date.now() - started < 10 * deadlineMs);
  t.deepEqual(report.timedOut, ['stuck', 'late']);
});

test('shutdown is idempotent and refuses late registrations', async (t) => {
  const lifecycle = new Lifecycle();
  let calls = 0;
  lifecycle.onClose('counted', () => void (calls += 1));
  const [first, second] = await Promise.all([lifecycle.shutdown(1000), lifecycle.shutdown(1000)]);
  t.is(first, second);
  t.is(calls, 1);
  t.throws(() => lifecycle.onClose('late', () => undefined));
});
