import test from 'ava';
import {
  AGE_GROUPS,
  ageGroup,
  ageOn,
  birthdayInYear,
  calculateAge,
  describeAgeGroups,
  nextBirthday,
  parseDateOfBirth,
  utcDate,
  type AgeGroup,
} from '../../../../services/gateway/src/utilities/age-calculator/endpoint.ts';

/** 2024-06-15T12:00:00Z, as in the HTTP tests. */
const NOW_MS = Date.UTC(2024, 5, 15, 12, 0, 0);

/** Midnight UTC of a `YYYY-MM-DD` date, in epoch milliseconds. */
const midnight = (text: string) => Date.parse(`${text}T00:00:00Z`);
/** A Temporal.PlainDate, built through the endpoint's own helper (temporal-polyfill belongs to the gateway package). */
const date = (text: string) => utcDate(midnight(text));
const TODAY = date('2024-06-15');

function parsedDate(text: string, today = TODAY): string {
  const parsed = parseDateOfBirth(text, today);
  return typeof parsed === 'string' ? parsed : parsed.toString();
}

test('utcDate is the UTC calendar date of an instant', (t) => {
  t.is(utcDate(NOW_MS).toString(), '2024-06-15');
  t.is(utcDate(Date.UTC(2024, 5, 15, 23, 59, 59, 999)).toString(), '2024-06-15');
  t.is(utcDate(Date.UTC(2024, 5, 16)).toString(), '2024-06-16');
});

test('parseDateOfBirth reads padded and unpadded dates and normalizes them', (t) => {
  t.is(parsedDate('1990-05-17'), '1990-05-17');
  t.is(parsedDate('2022-9-23'), '2022-09-23');
  t.is(parsedDate('2022-09-3'), '2022-09-03');
  t.is(parsedDate('2001-1-1'), '2001-01-01');
  t.is(parsedDate('0001-01-01'), '0001-01-01');
});

test('parseDateOfBirth refuses text that is not YYYY-M-D', (t) => {
  for (const text of ['', '1990', '1990-05', '90-05-17', '1990/05/17', '17-05-1990', '1990-005-17', '1990-05-017', '+1990-05-17', '19900-05-17', ' 1990-05-17', '1990-05-17T00:00', 'abcd-ef-gh']) {
    t.is(parseDateOfBirth(text, TODAY), 'not_a_date', JSON.stringify(text));
  }
});

test('parseDateOfBirth refuses impossible calendar dates instead of rolling them over', (t) => {
  for (const text of ['2023-02-30', '2023-02-29', '1900-02-29', '2023-13-01', '2023-00-10', '2023-04-31', '2023-01-00', '2023-01-32', '0000-01-01']) {
    t.is(parseDateOfBirth(text, TODAY), 'not_a_date', text);
  }
  t.is(parsedDate('2024-02-29'), '2024-02-29');
  t.is(parsedDate('2000-02-29'), '2000-02-29');
});

test('parseDateOfBirth refuses the future but accepts today', (t) => {
  t.is(parseDateOfBirth('2024-06-16', TODAY), 'in_the_future');
  t.is(parseDateOfBirth('2025-01-01', TODAY), 'in_the_future');
  t.is(parseDateOfBirth('9999-12-31', TODAY), 'in_the_future');
  t.is(parsedDate('2024-06-15'), '2024-06-15');
  t.is(parsedDate('2024-6-15'), '2024-06-15');
  // An impossible date is reported as such even when it would also be in the future.
  t.is(parseDateOfBirth('2030-02-30', TODAY), 'not_a_date');
});

test('calculateAge: born today is age 0, with the hours since midnight UTC', (t) => {
  t.deepEqual(calculateAge(date('2024-06-15'), NOW_MS), {
    dob: '2024-06-15',
    age: '0',
    years: 0,
    months: 0,
    days: 0,
    weeks: 0,
    hours: 12,
    minutes: 720,
    seconds: 43_200,
    humanReadableAge: '0 years, 0 months, 0 days',
    timeOfBirth: '2024-06-15T00:00:00.000Z',
    isLeapYear: true,
    timeZone: 'UTC',
    nextBirthdayInDays: 365, // the day of birth is not a birthday; the first is 2025-06-15
    ageGroup: 'Infant',
    willBe18At: '2042-06-15T00:00:00.000Z',
    ageInDays: 0,
    birthdayPassedThisYear: false,
  });
});

test('weeks, hours, minutes and seconds count from midnight UTC of the birth date', (t) => {
  const born = '2024-06-01';
  const now = midnight('2024-06-15') + (23 * 3600 + 59 * 60 + 59) * 1000 + 999; // 23:59:59.999 on the 14th day
  const result = calculateAge(date(born), now);
  t.is(result.ageInDays, 14);
  t.is(result.weeks, 2);
  t.is(result.hours, 14 * 24 + 23);
  t.is(result.minutes, (14 * 24 + 23) * 60 + 59);
  t.is(result.seconds, (14 * 24 + 23) * 3600 + 59 * 60 + 59);
  t.is(result.days, 14);
  // One millisecond later it is the next UTC day.
  const next = calculateAge(date(born), now + 1);
  t.is(next.ageInDays, 15);
  t.is(next.days, 15);
  t.is(next.seconds, 15 * 86_400);
  // weeks is ageInDays / 7 rounded down: 13 days is 1 week, 14 days is 2.
  t.is(calculateAge(date('2024-06-02'), NOW_MS).weeks, 1);
  t.is(calculateAge(date('2024-06-01'), NOW_MS).weeks, 2);
});

test('years, months and days are the calendar difference from the last birthday', (t) => {
  const at = (today: string) => midnight(today) + 3_600_000;
  t.is(calculateAge(date('2000-01-31'), at('2024-02-29')).humanReadableAge, '24 years, 0 months, 29 days');
  t.is(calculateAge(date('2000-01-31'), at('2024-03-01')).humanReadableAge, '24 years, 1 months, 1 days');
  t.is(calculateAge(date('2000-06-16'), NOW_MS).humanReadableAge, '23 years, 11 months, 30 days');
  t.is(calculateAge(date('2000-06-15'), NOW_MS).humanReadableAge, '24 years, 0 months, 0 days');
  t.is(calculateAge(date('2000-06-15'), NOW_MS).age, '24');
});

test('ageOn agrees with plain Temporal arithmetic for every birth date other than 29 February', (t) => {
  const births = ['1999-12-31', '2000-01-31', '2000-03-31', '2001-02-28', '2003-03-01', '2004-02-28', '2004-03-01', '2010-08-31'];
  let compared = 0;
  for (const birth of births) {
    for (let step = 0; step < 250; step += 1) {
      const today = date('2011-01-01').add({ days: 3 * step }); // to 2013-01-22
      const expected = date(birth).until(today, { largestUnit: 'years' });
      const actual = ageOn(date(birth), today);
      if (actual.years !== expected.years || actual.months !== expected.months || actual.days !== expected.days) {
        t.fail(`${birth} on ${today.toString()}: ${JSON.stringify(actual)} vs ${expected.toString()}`);
        return;
      }
      compared += 1;
    }
  }
  t.true(compared > 1000);
});

test('a 29 February birthday is observed on 1 March in common years', (t) => {
  const born = date('2000-02-29');
  const on = (today: string) => calculateAge(born, midnight(today) + 3_600_000);

  const eve = on('2001-02-28');
  t.is(eve.age, '0');
  t.is(eve.humanReadableAge, '0 years, 11 months, 30 days');
  t.is(eve.nextBirthdayInDays, 1);
  t.false(eve.birthdayPassedThisYear);

  const observed = on('2001-03-01');
  t.is(observed.age, '1');
  t.is(observed.humanReadableAge, '1 years, 0 months, 0 days');
  t.is(observed.nextBirthdayInDays, 0);
  t.false(observed.birthdayPassedThisYear);

  const after = on('2001-03-02');
  t.is(after.humanReadableAge, '1 years, 0 months, 1 days');
  t.is(after.nextBirthdayInDays, 364); // to 2002-03-01
  t.true(after.birthdayPassedThisYear);

  // In a leap year the birthday is the 29th itself.
  const leapEve = on('2004-02-28');
  t.is(leapEve.age, '3');
  t.is(leapEve.humanReadableAge, '3 years, 11 months, 27 days'); // since the birthday on 2003-03-01
  t.is(leapEve.nextBirthdayInDays, 1);
  const leapDay = on('2004-02-29');
  t.is(leapDay.age, '4');
  t.is(leapDay.humanReadableAge, '4 years, 0 months, 0 days');
  t.is(leapDay.nextBirthdayInDays, 0);
  t.false(leapDay.birthdayPassedThisYear);
  const leapMarch = on('2004-03-01');
  t.is(leapMarch.humanReadableAge, '4 years, 0 months, 1 days');
  t.is(leapMarch.nextBirthdayInDays, 365); // to 2005-03-01
  t.true(leapMarch.birthdayPassedThisYear);

  // A leap year plus 18 is never a leap year, so the 18th birthday of a 29 February child is always 1 March.
  t.is(eve.willBe18At, '2018-03-01T00:00:00.000Z');
  t.is(calculateAge(date('2004-02-29'), NOW_MS).willBe18At, '2022-03-01T00:00:00.000Z');
  t.is(calculateAge(date('2008-02-29'), NOW_MS).willBe18At, '2026-03-01T00:00:00.000Z');
  t.true(calculateAge(date('2000-02-29'), NOW_MS).isLeapYear);
  t.false(calculateAge(date('1900-03-01'), NOW_MS).isLeapYear);
});

test('the 18th birthday is an instant in the past for adults', (t) => {
  t.is(calculateAge(date('1950-12-25'), NOW_MS).willBe18At, '1968-12-25T00:00:00.000Z');
  t.is(calculateAge(date('0001-01-01'), NOW_MS).willBe18At, '0019-01-01T00:00:00.000Z');
  t.is(calculateAge(date('0001-01-01'), NOW_MS).timeOfBirth, '0001-01-01T00:00:00.000Z');
});

test('birthdayInYear: 29 February moves to 1 March in common years only', (t) => {
  const born = date('2000-02-29');
  t.is(birthdayInYear(born, 2001).toString(), '2001-03-01');
  t.is(birthdayInYear(born, 2004).toString(), '2004-02-29');
  t.is(birthdayInYear(born, 2100).toString(), '2100-03-01');
  t.is(birthdayInYear(born, 2400).toString(), '2400-02-29');
  t.is(birthdayInYear(date('1999-02-28'), 2000).toString(), '2000-02-28');
  t.is(birthdayInYear(date('1999-03-01'), 2000).toString(), '2000-03-01');
  t.is(birthdayInYear(date('1999-12-31'), 2024).toString(), '2024-12-31');
});

test('nextBirthday is today on the birthday, and never the day of birth', (t) => {
  const born = date('1990-06-15');
  t.is(nextBirthday(born, date('2024-06-15')).toString(), '2024-06-15');
  t.is(nextBirthday(born, date('2024-06-14')).toString(), '2024-06-15');
  t.is(nextBirthday(born, date('2024-06-16')).toString(), '2025-06-15');
  t.is(nextBirthday(born, date('1990-06-15')).toString(), '1991-06-15');
  t.is(nextBirthday(born, date('1990-12-31')).toString(), '1991-06-15');
  t.is(nextBirthday(date('2000-02-29'), date('2003-03-02')).toString(), '2004-02-29');
  t.is(nextBirthday(date('2000-02-29'), date('2004-03-01')).toString(), '2005-03-01');
  t.is(nextBirthday(date('2000-02-29'), date('2000-03-01')).toString(), '2001-03-01');
});

test('nextBirthdayInDays is 0 on the birthday and counts days otherwise', (t) => {
  t.is(calculateAge(date('1990-06-15'), NOW_MS).nextBirthdayInDays, 0);
  t.is(calculateAge(date('1990-06-16'), NOW_MS).nextBirthdayInDays, 1);
  t.is(calculateAge(date('1990-06-14'), NOW_MS).nextBirthdayInDays, 364); // 2025-06-14, no 29 February in between
  t.is(calculateAge(date('1990-12-31'), NOW_MS).nextBirthdayInDays, 199); // 15 (June) + 31 + 31 + 30 + 31 + 30 + 31
});

test('birthdayPassedThisYear is false on the birthday itself and in the year of birth', (t) => {
  t.false(calculateAge(date('1990-06-15'), NOW_MS).birthdayPassedThisYear); // the birthday is today
  t.true(calculateAge(date('1990-06-14'), NOW_MS).birthdayPassedThisYear);
  t.false(calculateAge(date('1990-06-16'), NOW_MS).birthdayPassedThisYear);
  t.true(calculateAge(date('1990-01-01'), NOW_MS).birthdayPassedThisYear);
  t.false(calculateAge(date('1990-12-31'), NOW_MS).birthdayPassedThisYear);
  // Born this year: the date of birth is not a birthday that has passed.
  t.false(calculateAge(date('2024-01-01'), NOW_MS).birthdayPassedThisYear);
  t.false(calculateAge(date('2024-06-14'), NOW_MS).birthdayPassedThisYear);
});

test('ageGroup at every boundary', (t) => {
  const cases: [years: number, label: AgeGroup][] = [
    [0, 'Infant'],
    [1, 'Toddler'],
    [3, 'Toddler'],
    [4, 'Child'],
    [12, 'Child'],
    [13, 'Teenager'],
    [17, 'Teenager'],
    [18, 'Young Adult'],
    [24, 'Young Adult'],
    [25, 'Adult'],
    [44, 'Adult'],
    [45, 'Middle-aged Adult'],
    [64, 'Middle-aged Adult'],
    [65, 'Senior'],
    [120, 'Senior'],
    [2023, 'Senior'],
  ];
  for (const [years, label] of cases) t.is(ageGroup(years), label, String(years));
  t.is(AGE_GROUPS.length, 8);
  t.is(
    describeAgeGroups(),
    '0-0 `Infant`, 1-3 `Toddler`, 4-12 `Child`, 13-17 `Teenager`, 18-24 `Young Adult`, 25-44 `Adult`, 45-64 `Middle-aged Adult`, 65+ `Senior`',
  );
});

test('ageGroup follows completed years: the day before the 13th birthday is still a Child', (t) => {
  t.is(calculateAge(date('2011-06-16'), NOW_MS).ageGroup, 'Child');
  t.is(calculateAge(date('2011-06-15'), NOW_MS).ageGroup, 'Teenager');
  t.is(calculateAge(date('2023-06-16'), NOW_MS).ageGroup, 'Infant');
  t.is(calculateAge(date('2023-06-15'), NOW_MS).ageGroup, 'Toddler');
  t.is(calculateAge(date('1959-06-15'), NOW_MS).ageGroup, 'Senior');
  t.is(calculateAge(date('1959-06-16'), NOW_MS).ageGroup, 'Middle-aged Adult');
});
