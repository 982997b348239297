import test from 'ava';
import { hexToRgb } from '../../../../services/gateway/src/utilities/hex-to-rgb/endpoint.ts';
import { fixedClock } from '../../../../services/gateway/src/runtime/clock.ts';

const clock = fixedClock(Date.UTC(2024, 0, 1));

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
