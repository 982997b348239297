import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import type { Clock } from '../../runtime/clock.ts';
import { validationError } from '../../http/api-error.ts';
import { defineEndpoint } from '../../http/endpoint.ts';

/** Age groups by completed years; each label covers its `from` up to the next group's `from`. */
export const AGE_GROUPS = [
  { from: 0, label: 'Infant' },
  { from: 1, label: 'Toddler' },
  { from: 4, label: 'Child' },
  { from: 13, label: 'Teenager' },
  { from: 18, label: 'Young Adult' },
  { from: 25, label: 'Adult' },
  { from: 45, label: 'Middle-aged Adult' },
  { from: 65, label: 'Senior' },
] as const;

export type AgeGroup = (typeof AGE_GROUPS)[number]['label'];

export function ageGroup(years: number): AgeGroup {
  let label: AgeGroup = AGE_GROUPS[0].label;
  for (const group of AGE_GROUPS) if (years >= group.from) label = group.label;
  return label;
}

export function describeAgeGroups(): string {
  return AGE_GROUPS.map((group, index) => {
    const next = AGE_GROUPS[index + 1];
    return next ? `${group.from}-${next.from - 1} \`${group.label}\`` : `${group.from}+ \`${group.label}\``;
  }).join(', ');
}

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

const DATE_TEXT = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const MS_PER_SECOND = 1000;
const MS_PER_DAY = 86_400_000;

const querySchema = z.object({
  dob: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a date as YYYY-MM-DD') })
    .regex(DATE_TEXT, { error: 'must be a date as YYYY-MM-DD (for example 1990-05-17 or 2022-9-23)' })
    .meta({
      description: 'Date of birth as `YYYY-MM-DD`; month and day may be unpadded (`2022-9-23`). Must be a real date (no 30 February), not in the future: the pattern states the shape and ranges, the server also checks those two.',
      examples: ['1990-05-17'],
      // The shape with month 1-12 and day 1-31; which days a month has and "not in the future" are not expressible here.
      pattern: '^\\d{4}-(0?[1-9]|1[0-2])-(0?[1-9]|[12]\\d|3[01])$',
    }),
});

const resultSchema = z.object({
  dob: z.string(),
  age: z.string(),
  years: z.number().int(),
  months: z.number().int(),
  days: z.number().int(),
  weeks: z.number().int(),
  hours: z.number().int(),
  minutes: z.number().int(),
  seconds: z.number().int(),
  humanReadableAge: z.string(),
  timeOfBirth: z.string(),
  isLeapYear: z.boolean(),
  timeZone: z.literal('UTC'),
  nextBirthdayInDays: z.number().int(),
  ageGroup: z.enum(AGE_GROUPS.map((group) => group.label) as [string, ...string[]]),
  willBe18At: z.string(),
  ageInDays: z.number().int(),
  birthdayPassedThisYear: z.boolean(),
});

export type AgeResult = z.infer<typeof resultSchema>;

export type DateOfBirthProblem = 'not_a_date' | 'in_the_future';

/** Reads `YYYY-M-D` strictly: 2023-02-30 is refused, never rolled over to March. */
export function parseDateOfBirth(text: string, today: Temporal.PlainDate): Temporal.PlainDate | DateOfBirthProblem {
  const match = DATE_TEXT.exec(text);
  if (!match) return 'not_a_date';
  const [year, month, day] = [match[1], match[2], match[3]].map(Number) as [number, number, number];
  if (year < 1) return 'not_a_date';
  let date: Temporal.PlainDate;
  try {
    date = Temporal.PlainDate.from({ year, month, day }, { overflow: 'reject' });
  } catch {
    return 'not_a_date';
  }
  return Temporal.PlainDate.compare(date, today) > 0 ? 'in_the_future' : date;
}

function midnightUtc(date: Temporal.PlainDate): Temporal.Instant {
  return date.toZonedDateTime('UTC').toInstant();
}

function isoUtc(instant: Temporal.Instant): string {
  return instant.toString({ fractionalSecondDigits: 3 });
}

/** The UTC calendar date of an instant: "today" when given the current time. */
export function utcDate(epochMilliseconds: number): Temporal.PlainDate {
  return Temporal.Instant.fromEpochMilliseconds(epochMilliseconds).toZonedDateTimeISO('UTC').toPlainDate();
}

/** `nowMs` is read once by the caller, so "today" and the elapsed units can never straddle midnight. */
export function calculateAge(dateOfBirth: Temporal.PlainDate, nowMs: number): AgeResult {
  const today = utcDate(nowMs);
  const born = midnightUtc(dateOfBirth);
  const elapsedMs = nowMs - born.epochMilliseconds;
  const calendar = ageOn(dateOfBirth, today);
  const ageInDays = Math.floor(elapsedMs / MS_PER_DAY);
  const birthdayThisYear = birthdayInYear(dateOfBirth, today.year);
  return {
    dob: dateOfBirth.toString(),
    age: String(calendar.years),
    years: calendar.years,
    months: calendar.months,
    days: calendar.days,
    weeks: Math.floor(ageInDays / 7),
    hours: Math.floor(elapsedMs / (MS_PER_SECOND * 3600)),
    minutes: Math.floor(elapsedMs / (MS_PER_SECOND * 60)),
    seconds: Math.floor(elapsedMs / MS_PER_SECOND),
    humanReadableAge: `${calendar.years} years, ${calendar.months} months, ${calendar.days} days`,
    timeOfBirth: isoUtc(born),
    isLeapYear: dateOfBirth.inLeapYear,
    timeZone: 'UTC',
    nextBirthdayInDays: today.until(nextBirthday(dateOfBirth, today), { largestUnit: 'days' }).days,
    ageGroup: ageGroup(calendar.years),
    willBe18At: isoUtc(midnightUtc(birthdayInYear(dateOfBirth, dateOfBirth.year + 18))),
    ageInDays,
    birthdayPassedThisYear: today.year > dateOfBirth.year && Temporal.PlainDate.compare(birthdayThisYear, today) < 0,
  };
}

export function ageCalculatorEndpoint(clock: Clock) {
  return defineEndpoint({
    operationId: 'ageCalculator',
    methods: ['GET'],
    path: '/v1/age-calculator',
    summary: 'Compute an age from a date of birth',
    description: [
      '`dob` is `YYYY-M-D` with a four-digit year; month and day may be unpadded and `dob` comes back zero-padded.',
      'Impossible dates (`2023-02-30`, month 13, year 0000) and dates after today are a 400. Everything is computed in UTC:',
      '"today" is the current UTC date and `timeOfBirth` is midnight UTC of the birth date.',
      '`years` are completed years and `months`, `days` the calendar difference from the last birthday (or the birth date) to today;',
      '`age` is `years` as a string.',
      '`seconds`, `minutes`, `hours` are whole units elapsed since `timeOfBirth`; `ageInDays` is whole days since then and `weeks` is `ageInDays` / 7 rounded down.',
      'A 29 February birthday is observed on 1 March in common years (the UK and Hong Kong legal rule), for the age',
      '(1 March 2001 is 1 year, 0 months, 0 days), `nextBirthdayInDays` and `willBe18At` alike.',
      '`nextBirthdayInDays` is 0 on the birthday itself; `birthdayPassedThisYear` is true only once the birthday is over',
      '(false on the day itself and in the year of birth).',
      `\`ageGroup\` by completed years: ${describeAgeGroups()}.`,
      '`willBe18At` is midnight UTC of the 18th birthday, in the past for adults.',
    ].join(' '),
    authenticated: true,
    query: querySchema,
    responses: {
      200: {
        description: 'The age.',
        schema: resultSchema,
        // An answer to the documented example request (clock at 2024-06-15T12:00:00Z).
        example: {
          dob: '1990-05-17',
          age: '34',
          years: 34,
          months: 0,
          days: 29,
          weeks: 1778,
          hours: 298764,
          minutes: 17925840,
          seconds: 1075550400,
          humanReadableAge: '34 years, 0 months, 29 days',
          timeOfBirth: '1990-05-17T00:00:00.000Z',
          isLeapYear: false,
          timeZone: 'UTC',
          nextBirthdayInDays: 336,
          ageGroup: 'Adult',
          willBe18At: '2008-05-17T00:00:00.000Z',
          ageInDays: 12448,
          birthdayPassedThisYear: true,
        },
      },
      400: { description: '`dob` missing, not `YYYY-M-D`, not a real date, or in the future.' },
    },
    handle: ({ query }) => {
      const nowMs = clock.now();
      const parsed = parseDateOfBirth(query.dob, utcDate(nowMs));
      if (parsed === 'not_a_date') throw invalidDob('is not a real calendar date');
      if (parsed === 'in_the_future') throw invalidDob('is in the future');
      return calculateAge(parsed, nowMs);
    },
  });
}

function invalidDob(message: string) {
  return validationError([{ in: 'query', field: 'dob', message }]);
}
