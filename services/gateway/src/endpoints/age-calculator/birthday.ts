import { Temporal } from 'temporal-polyfill';

/**
 * The day a birthday falls on in a given year. A 29 February birthday is observed on 1 March in
 * common years, the rule of UK and Hong Kong law and the one Temporal's own date difference
 * follows (29 Feb 2000 to 28 Feb 2001 is 11 months 30 days; to 1 March 2001 it is 1 year).
 */
export function birthdayInYear(dateOfBirth: Temporal.PlainDate, year: number): Temporal.PlainDate {
  if (dateOfBirth.month === 2 && dateOfBirth.day === 29) {
    const inYear = Temporal.PlainDate.from({ year, month: 2, day: 1 });
    if (!inYear.inLeapYear) return Temporal.PlainDate.from({ year, month: 3, day: 1 });
  }
  return Temporal.PlainDate.from({ year, month: dateOfBirth.month, day: dateOfBirth.day });
}

/** The first birthday on or after `today` that is an anniversary (never the day of birth itself). */
export function nextBirthday(dateOfBirth: Temporal.PlainDate, today: Temporal.PlainDate): Temporal.PlainDate {
  const year = Math.max(today.year, dateOfBirth.year + 1);
  const candidate = birthdayInYear(dateOfBirth, year);
  return Temporal.PlainDate.compare(candidate, today) >= 0 ? candidate : birthdayInYear(dateOfBirth, year + 1);
}
