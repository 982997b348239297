import { z } from 'zod';
import type { Clock } from '../../runtime/clock.ts';
import { defineEndpoint } from '../../http/endpoint.ts';
import { queryEnum } from '../query-fields.ts';
import { loadTimeZoneRules, timeFacts, type TimeZoneLabel } from './time-facts.ts';
import { timeFactsSchema } from './time-facts-schema.ts';

/** 1900-01-01T00:00:00Z to 3000-01-01T00:00:00Z: every date in it has a four-digit year in every zone. */
export const UNIX_RANGE = { min: -2_208_988_800, max: 32_503_680_000 } as const;

const UNIX_TEXT = /^[+-]?\d{1,15}$/;
/** Smallest magnitude taken for a millisecond timestamp in the error hint (1973-03-03 in milliseconds). */
const MILLISECONDS_FROM = 100_000_000_000;
const expectation = `must be a whole number of seconds from ${UNIX_RANGE.min} (1900-01-01) to ${UNIX_RANGE.max} (3000-01-01)`;

const querySchema = z.object({
  unix: z
    .preprocess(
      (value) => (typeof value === 'string' && UNIX_TEXT.test(value) ? Number(value) : value),
      z
        .number({ error: expectation })
        .int({ error: expectation })
        .superRefine((value, context) => {
          if (value >= UNIX_RANGE.min && value <= UNIX_RANGE.max) return;
          // Milliseconds since March 1973 have 12 digits or more; 11-digit values just past the year 3000
          // (32503680001) are far more likely seconds a little out of range than a time in 1971.
          const looksLikeMilliseconds = Math.abs(value) >= MILLISECONDS_FROM && Math.abs(value / 1000) <= UNIX_RANGE.max;
          context.addIssue({ code: 'custom', message: looksLikeMilliseconds ? `${expectation}; this looks like milliseconds, divide by 1000` : expectation });
        })
        .meta({
          description: `UNIX time in seconds, ${UNIX_RANGE.min} to ${UNIX_RANGE.max}. Defaults to now.`,
          examples: [1700000000],
          // The range the server checks, not just a safe integer's.
          minimum: UNIX_RANGE.min,
          maximum: UNIX_RANGE.max,
        }),
    )
    .optional(),
  timezone: queryEnum(['EST', 'CET', 'PST'], {
    description: 'Zone label: `EST` (America/New_York), `CET` (Europe/Paris), `PST` (America/Los_Angeles). Default `CET`. Case-insensitive.',
    caseInsensitive: true,
  }).optional(),
});

const FIELD_RULES = [
  '`timezone` echoes the label; the labels name IANA zones with daylight saving observed: `EST` is America/New_York,',
  '`CET` Europe/Paris and `PST` America/Los_Angeles, so a July timestamp in `EST` is shown in EDT (UTC-4) and `isDST` is true.',
  '`isDST` is the time zone database\'s own daylight-saving flag for that instant (so the year-round war time of 1942-45 is',
  'daylight saving time, and Paris Mean Time before March 1911 is not), not a comparison of offsets.',
  '`unix` is optional and defaults to the current second.',
  'All zone-dependent fields (dates, clock parts, weekday, ranges) are computed in the chosen zone.',
  '`yearsAgo` and `monthsAgo` are whole calendar years and months from the timestamp to now;',
  '`weeksAgo`, `daysAgo`, `hoursAgo`, `minutesAgo`, `secondsAgo` are whole elapsed units (a day is 24 hours).',
  'All are negative for a future timestamp. `formattedTimeAgo` is `<d> days, <h> hours, <m> minutes, <s> seconds` of the elapsed time',
  '(null for a future timestamp); `formattedTimeFuture` is the same for the time remaining (null for a past or present one).',
  '`isoTimestamp` is the instant in UTC with milliseconds; `formattedDate` is `MM/DD/YYYY`; `humanReadableDate` is',
  '`M/D/YYYY, h:mm:ss AM` (12-hour clock); `utcTimestamp` is the RFC 7231 form (`Tue, 14 Nov 2023 22:13:20 GMT`).',
  '`timezoneOffset` is minutes east of UTC at that instant (`EST` gives -300 in winter, -240 in summer), rounded to a whole',
  'minute (Paris Mean Time, +0:09:21 until March 1911, gives 9).',
  '`season` is the meteorological season of the northern hemisphere (Dec-Feb `Winter`, Mar-May `Spring`, Jun-Aug `Summer`, Sep-Nov `Autumn`).',
  '`ageInYears` is `yearsAgo`, or 0 for a future timestamp. `startOfDay` and `endOfDay` are the first and last millisecond of the',
  "timestamp's day in the zone, as UTC instants. `weekNumber` is the ISO 8601 week. `weekdayOrdinal` is the day of the month as an",
  'ordinal (`14th`). `secondsUntilMidnight` counts from the timestamp (not from now) to the next midnight in the zone.',
  '`fullWeekRange` is the ISO week (Monday to Sunday) holding the date, `fullMonthRange` and `fullYearRange` its month and year;',
  '`currentYearStartDate`, `currentYearEndDate` and `currentYear` describe the current year in the zone.',
  '`chatFormats` are Discord timestamp tags `<t:<unix>:<style>>` with styles f, t, d, D, t, T, R for keys 1 to 7.',
  '`hours`, `min`, `sec` and `humanReadableTime24H` use the 24-hour clock. `formattedTimeExtra` is `<Month> <d>, <yyyy>`.',
].join(' ');

export function timeEndpoint(clock: Clock) {
  loadTimeZoneRules();
  return defineEndpoint({
    operationId: 'time',
    methods: ['GET'],
    path: '/v1/time',
    summary: 'Facts about a UNIX timestamp relative to now, in a chosen time zone',
    description: FIELD_RULES,
    authenticated: true,
    query: querySchema,
    responses: {
      200: {
        description: 'The facts.',
        schema: timeFactsSchema,
        // An answer to the documented example request (clock at 2024-06-15T12:00:00Z).
        example: {
          timezone: 'CET',
          yearsAgo: 0,
          monthsAgo: 7,
          weeksAgo: 30,
          daysAgo: 213,
          hoursAgo: 5125,
          minutesAgo: 307546,
          secondsAgo: 18452800,
          formattedTimeAgo: '213 days, 13 hours, 46 minutes, 40 seconds',
          formattedTimeFuture: null,
          isoTimestamp: '2023-11-14T22:13:20.000Z',
          formattedDate: '11/14/2023',
          humanReadableDate: '11/14/2023, 11:13:20 PM',
          utcTimestamp: 'Tue, 14 Nov 2023 22:13:20 GMT',
          timezoneOffset: 60,
          weekday: 'Tuesday',
          unixMilliseconds: 1700000000000,
          unixTimestamp: 1700000000,
          dayOfYear: 318,
          season: 'Autumn',
          isLeapYear: false,
          ageInYears: 0,
          startOfDay: '2023-11-13T23:00:00.000Z',
          endOfDay: '2023-11-14T22:59:59.999Z',
          quarter: 'Q4',
          isDST: false,
          weekNumber: 46,
          isWeekend: false,
          monthName: 'November',
          weekdayOrdinal: '14th',
          secondsUntilMidnight: 2800,
          fullWeekRange: '2023-11-13 to 2023-11-19',
          fullMonthRange: '2023-11-01 to 2023-11-30',
          fullYearRange: '2023-01-01 to 2023-12-31',
          currentYearStartDate: '2024-01-01',
          currentYearEndDate: '2024-12-31',
          chatFormats: {
            chatFormat1: '<t:1700000000:f>',
            chatFormat2: '<t:1700000000:t>',
            chatFormat3: '<t:1700000000:d>',
            chatFormat4: '<t:1700000000:D>',
            chatFormat5: '<t:1700000000:t>',
            chatFormat6: '<t:1700000000:T>',
            chatFormat7: '<t:1700000000:R>',
          },
          hours: '23',
          min: '13',
          sec: '20',
          humanReadableTime24H: '23:13:20',
          isFirstMondayOfMonth: false,
          isLastDayOfMonth: false,
          currentYear: 2024,
          formattedTimeExtra: 'November 14, 2023',
        },
      },
      400: {
        description: '`unix` not a whole number of seconds in range (a value of 12 digits or more that would be in range divided by 1000' +
          ' gets a hint that it looks like milliseconds), or `timezone` not EST, CET or PST.',
      },
    },
    handle: ({ query }) => {
      const now = clock.now();
      const label: TimeZoneLabel = query.timezone ?? 'CET';
      return timeFacts(query.unix ?? Math.floor(now / 1000), label, now);
    },
  });
}
