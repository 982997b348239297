import test from 'ava';
import { hexToRgb } from '../../../services/gateway/src/endpoints/hex-to-rgb/endpoint.ts';
import { fixedClock } from '../../../services/gateway/src/runtime/clock.ts';

const clock = fixedClock(Date.UTC(2024, 0, 1));

test('converts #RRGGBB to components with percentages', (t) => {
  const result = hexToRgb('#FF5733', clock);
  t.is(result.mainRgb, '255, 87, 51');
  t.deepEqual(result.rgb.r, { value: 255, description: 'Red component (0-255)', percentage: '100%', validity: true });
  t.is(result.rgb.g.percentage, '34.12%');
  t.is(result.rgb.b.percentage, '20%');
  t.is(result.originalHex, '#FF5733');
  t.true(result.conversionSuccess);
  t.is(result.timestamp, '2024-01-01T00:00:00.000Z');
});

test('expands #RGB shorthand and accepts lowercase without #', (t) => {
  t.is(hexToRgb('#f53', clock).mainRgb, '255, 85, 51');
  t.is(hexToRgb('00ff7f', clock).mainRgb, '0, 255, 127');
  t.is(hexToRgb('000', clock).rgb.r.percentage, '0%');
});

test('refuses anything that is not 3 or 6 hex digits', (t) => {
  for (const bad of ['#FF57', '#GG0000', '', '#FF573380', '##FFF', ' FFF']) {
    t.throws(() => hexToRgb(bad, clock), { instanceOf: RangeError }, bad);
  }
});
