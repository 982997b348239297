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

export interface CalendarAge {
  years: number;
  months: number;
  days: number;
}

/**
 * Completed years by the birthday rule above, then the months and days since the last birthday.
 * For every date but 29 February this is Temporal's own `until` with largest unit years; for a
 * 29 February birth it keeps the observed birthday: 1 March 2001 is 1 year 0 months 0 days (plain
 * Temporal says 1 year 0 months 1 day, as if the birthday had been on 28 February).
 */
export function ageOn(dateOfBirth: Temporal.PlainDate, today: Temporal.PlainDate): CalendarAge {
  let years = today.year - dateOfBirth.year;
  if (years > 0 && Temporal.PlainDate.compare(birthdayInYear(dateOfBirth, today.year), today) > 0) years -= 1;
  const lastBirthday = years > 0 ? birthdayInYear(dateOfBirth, dateOfBirth.year + years) : dateOfBirth;
  const since = lastBirthday.until(today, { largestUnit: 'months' });
  return { years, months: since.months, days: since.days };
}
