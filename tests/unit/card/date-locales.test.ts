import { isSupportedDateLocale } from '@utility-api/render-jobs';
import test from 'ava';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Every two- and three-letter language subtag this runtime's ICU writes dates in. */
function icuDateLanguages(): string[] {
  const supported: string[] = [];
  for (const first of LETTERS) {
    for (const second of LETTERS) {
      const two = first + second;
      if (Intl.DateTimeFormat.supportedLocalesOf([two], { localeMatcher: 'lookup' }).length === 1) supported.push(two);
      for (const third of LETTERS) {
        const three = two + third;
        if (Intl.DateTimeFormat.supportedLocalesOf([three], { localeMatcher: 'lookup' }).length === 1) supported.push(three);
      }
    }
  }
  return supported;
}

test('the language list is exactly what the running ICU writes dates in', (t) => {
  const icu = icuDateLanguages();
  const candidates = [...LETTERS].flatMap((first) => [...LETTERS].flatMap((second) => [first + second, ...[...LETTERS].map((third) => first + second + third)]));
  const listed = candidates.filter((code) => isSupportedDateLocale(code));
  t.deepEqual(listed, icu);
});
