import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import type { Clock } from '../../runtime/clock.ts';
import { validationError } from '../../errors/api-error.ts';
import { defineEndpoint } from '../endpoint.ts';
import { AGE_GROUPS, ageGroup, describeAgeGroups } from './age-group.ts';
import { ageOn, birthdayInYear, nextBirthday } from './birthday.ts';

const DATE_TEXT = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const MS_PER_SECOND = 1000;
const MS_PER_DAY = 86_400_000;

const querySchema = z.object({
  dob: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a date as YYYY-MM-DD') })
    .regex(DATE_TEXT, { error: 'must be a date as YYYY-MM-DD (for example 1990-05-17 or 2022-9-23)' })
    .meta({
      description: 'Date of birth as `YYYY-MM-DD`; month and day may be unpadded (`2022-9-23`). Must be a real date, not in the future.',
      examples: ['1990-05-17'],
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
    birthdayPassedThisYear:
      today.year > dateOfBirth.year && Temporal.PlainDate.compare(birthdayThisYear, today) < 0,
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
      200: { description: 'The age.', schema: resultSchema },
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
