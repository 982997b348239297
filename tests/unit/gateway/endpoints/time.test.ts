import test from 'ava';
import { UNIX_RANGE } from '../../../../services/gateway/src/utilities/time/endpoint.ts';
import { ordinal } from '../../../../services/gateway/src/utilities/time/time-facts.ts';
import { timeFacts, type TimeZoneLabel } from '../../../../services/gateway/src/utilities/time/time-facts.ts';
import { timeFactsSchema, type TimeFacts } from '../../../../services/gateway/src/utilities/time/time-facts-schema.ts';

/** 2024-06-15T12:00:00Z (unix 1718452800): a Saturday, 08:00 EDT, 14:00 CEST, 05:00 PDT. */
const NOW_MS = Date.UTC(2024, 5, 15, 12, 0, 0);
const NOW_SECONDS = 1_718_452_800;

/** Unix seconds of a UTC wall-clock time; month is 1-based. */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  return Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
}

/** Noon UTC: the same calendar date in all three zones (07:00/08:00 EST, 13:00/14:00 CET, 04:00/05:00 PST). */
function noon(year: number, month: number, day: number): number {
  return utc(year, month, day, 12);
}

const ZONES: readonly TimeZoneLabel[] = ['EST', 'CET', 'PST'];

test('the helper constants are what the hand computations below assume', (t) => {
  t.is(NOW_SECONDS * 1000, NOW_MS);
  t.is(utc(2023, 11, 14, 22, 13, 20), 1_700_000_000);
  t.is(utc(2023, 7, 4, 10, 30, 45), 1_688_466_645);
  t.is(utc(2024, 1, 1, 7, 5, 9), 1_704_092_709);
});

test('EST, winter: every field of 2023-11-14T22:13:20Z (17:13:20 EST, a Tuesday)', (t) => {
  // Elapsed to now: 1718452800 - 1700000000 = 18452800 s = 213 d (18403200 s) + 49600 s = 13 h 46 min 40 s.
  // New York left daylight saving on 2023-11-05, so the offset is UTC-5.
  // Calendar in New York: 2023-11-14 17:13:20 -> 2024-06-14 17:13:20 is 7 months, next month is past 2024-06-15 08:00.
  t.deepEqual(timeFacts(1_700_000_000, 'EST', NOW_MS), {
    timezone: 'EST',
    yearsAgo: 0,
    monthsAgo: 7,
    weeksAgo: 30, // 213 / 7 = 30.4
    daysAgo: 213,
    hoursAgo: 5125, // 213 * 24 + 13
    minutesAgo: 307_546, // 18452800 / 60 = 307546.67
    secondsAgo: 18_452_800,
    formattedTimeAgo: '213 days, 13 hours, 46 minutes, 40 seconds',
    formattedTimeFuture: null,
    isoTimestamp: '2023-11-14T22:13:20.000Z',
    formattedDate: '11/14/2023',
    humanReadableDate: '11/14/2023, 5:13:20 PM',
    utcTimestamp: 'Tue, 14 Nov 2023 22:13:20 GMT',
    timezoneOffset: -300,
    weekday: 'Tuesday',
    unixMilliseconds: 1_700_000_000_000,
    unixTimestamp: 1_700_000_000,
    dayOfYear: 318, // 304 days in January..October 2023, + 14
    season: 'Autumn',
    isLeapYear: false,
    ageInYears: 0,
    startOfDay: '2023-11-14T05:00:00.000Z',
    endOfDay: '2023-11-15T04:59:59.999Z',
    quarter: 'Q4',
    isDST: false,
    weekNumber: 46, // ISO week 1 of 2023 starts Monday 2 January; 13 November is 45 weeks later
    isWeekend: false,
    monthName: 'November',
    weekdayOrdinal: '14th',
    secondsUntilMidnight: 24_400, // 24:00:00 - 17:13:20 = 6 h 46 min 40 s
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
    hours: '17',
    min: '13',
    sec: '20',
    humanReadableTime24H: '17:13:20',
    isFirstMondayOfMonth: false,
    isLastDayOfMonth: false,
    currentYear: 2024,
    formattedTimeExtra: 'November 14, 2023',
  });
});

test('CET, summer: every field of 2023-07-04T10:30:45Z (12:30:45 CEST, a Tuesday)', (t) => {
  // Elapsed: 1718452800 - 1688466645 = 29986155 s = 347 d (29980800 s) + 5355 s = 1 h 29 min 15 s.
  // Paris: 2023-07-04 12:30:45 -> 2024-06-04 12:30:45 is 11 months; 2024-07-04 is after now.
  t.deepEqual(timeFacts(1_688_466_645, 'CET', NOW_MS), {
    timezone: 'CET',
    yearsAgo: 0,
    monthsAgo: 11,
    weeksAgo: 49, // 347 / 7 = 49.6
    daysAgo: 347,
    hoursAgo: 8329, // 347 * 24 + 1
    minutesAgo: 499_769, // 29986155 / 60 = 499769.25
    secondsAgo: 29_986_155,
    formattedTimeAgo: '347 days, 1 hours, 29 minutes, 15 seconds',
    formattedTimeFuture: null,
    isoTimestamp: '2023-07-04T10:30:45.000Z',
    formattedDate: '07/04/2023',
    humanReadableDate: '7/4/2023, 12:30:45 PM',
    utcTimestamp: 'Tue, 04 Jul 2023 10:30:45 GMT',
    timezoneOffset: 120,
    weekday: 'Tuesday',
    unixMilliseconds: 1_688_466_645_000,
    unixTimestamp: 1_688_466_645,
    dayOfYear: 185, // 181 days in January..June 2023, + 4
    season: 'Summer',
    isLeapYear: false,
    ageInYears: 0,
    startOfDay: '2023-07-03T22:00:00.000Z',
    endOfDay: '2023-07-04T21:59:59.999Z',
    quarter: 'Q3',
    isDST: true,
    weekNumber: 27, // Monday 3 July is 182 days = 26 weeks after Monday 2 January (week 1)
    isWeekend: false,
    monthName: 'July',
    weekdayOrdinal: '4th',
    secondsUntilMidnight: 41_355, // 24:00:00 - 12:30:45 = 11 h 29 min 15 s
    fullWeekRange: '2023-07-03 to 2023-07-09',
    fullMonthRange: '2023-07-01 to 2023-07-31',
    fullYearRange: '2023-01-01 to 2023-12-31',
    currentYearStartDate: '2024-01-01',
    currentYearEndDate: '2024-12-31',
    chatFormats: {
      chatFormat1: '<t:1688466645:f>',
      chatFormat2: '<t:1688466645:t>',
      chatFormat3: '<t:1688466645:d>',
      chatFormat4: '<t:1688466645:D>',
      chatFormat5: '<t:1688466645:t>',
      chatFormat6: '<t:1688466645:T>',
      chatFormat7: '<t:1688466645:R>',
    },
    hours: '12',
    min: '30',
    sec: '45',
    humanReadableTime24H: '12:30:45',
    isFirstMondayOfMonth: false,
    isLastDayOfMonth: false,
    currentYear: 2024,
    formattedTimeExtra: 'July 4, 2023',
  });
});

test('PST: every field of 2024-01-01T07:05:09Z, which is still New Year\'s Eve 2023 (23:05:09 PST, a Sunday)', (t) => {
  // Elapsed: 1718452800 - 1704092709 = 14360091 s = 166 d (14342400 s) + 17691 s = 4 h 54 min 51 s.
  // Los Angeles: 2023-12-31 23:05:09 -> 2024-05-31 23:05:09 is 5 months; 2024-06-30 is after now (05:00 PDT).
  t.deepEqual(timeFacts(1_704_092_709, 'PST', NOW_MS), {
    timezone: 'PST',
    yearsAgo: 0,
    monthsAgo: 5,
    weeksAgo: 23, // 166 / 7 = 23.7
    daysAgo: 166,
    hoursAgo: 3988, // 166 * 24 + 4
    minutesAgo: 239_334, // 14360091 / 60 = 239334.85
    secondsAgo: 14_360_091,
    formattedTimeAgo: '166 days, 4 hours, 54 minutes, 51 seconds',
    formattedTimeFuture: null,
    isoTimestamp: '2024-01-01T07:05:09.000Z',
    formattedDate: '12/31/2023',
    humanReadableDate: '12/31/2023, 11:05:09 PM',
    utcTimestamp: 'Mon, 01 Jan 2024 07:05:09 GMT',
    timezoneOffset: -480,
    weekday: 'Sunday',
    unixMilliseconds: 1_704_092_709_000,
    unixTimestamp: 1_704_092_709,
    dayOfYear: 365,
    season: 'Winter',
    isLeapYear: false, // 2023 in the zone, although the UTC date is in 2024
    ageInYears: 0,
    startOfDay: '2023-12-31T08:00:00.000Z',
    endOfDay: '2024-01-01T07:59:59.999Z',
    quarter: 'Q4',
    isDST: false,
    weekNumber: 52, // 2023 has 52 ISO weeks; Sunday 31 December closes the last one
    isWeekend: true,
    monthName: 'December',
    weekdayOrdinal: '31st',
    secondsUntilMidnight: 3291, // 24:00:00 - 23:05:09 = 54 min 51 s
    fullWeekRange: '2023-12-25 to 2023-12-31',
    fullMonthRange: '2023-12-01 to 2023-12-31',
    fullYearRange: '2023-01-01 to 2023-12-31',
    currentYearStartDate: '2024-01-01',
    currentYearEndDate: '2024-12-31',
    chatFormats: {
      chatFormat1: '<t:1704092709:f>',
      chatFormat2: '<t:1704092709:t>',
      chatFormat3: '<t:1704092709:d>',
      chatFormat4: '<t:1704092709:D>',
      chatFormat5: '<t:1704092709:t>',
      chatFormat6: '<t:1704092709:T>',
      chatFormat7: '<t:1704092709:R>',
    },
    hours: '23',
    min: '05',
    sec: '09',
    humanReadableTime24H: '23:05:09',
    isFirstMondayOfMonth: false,
    isLastDayOfMonth: true,
    currentYear: 2024,
    formattedTimeExtra: 'December 31, 2023',
  });
});

test('the same instant reads differently in each zone', (t) => {
  const instant = utc(2024, 3, 1, 3, 0, 0); // 2024-03-01T03:00Z
  const est = timeFacts(instant, 'EST', NOW_MS);
  const cet = timeFacts(instant, 'CET', NOW_MS);
  const pst = timeFacts(instant, 'PST', NOW_MS);
  t.is(est.humanReadableTime24H, '22:00:00');
  t.is(cet.humanReadableTime24H, '04:00:00');
  t.is(pst.humanReadableTime24H, '19:00:00');
  t.is(est.formattedDate, '02/29/2024');
  t.is(cet.formattedDate, '03/01/2024');
  t.is(pst.formattedDate, '02/29/2024');
  t.is(est.season, 'Winter');
  t.is(cet.season, 'Spring');
  t.true(pst.isLastDayOfMonth);
  t.false(cet.isLastDayOfMonth);
  // The zone-independent fields do not move.
  for (const facts of [est, cet, pst]) {
    t.is(facts.isoTimestamp, '2024-03-01T03:00:00.000Z');
    t.is(facts.utcTimestamp, 'Fri, 01 Mar 2024 03:00:00 GMT');
    t.is(facts.secondsAgo, NOW_SECONDS - instant);
  }
});

test('isDST and timezoneOffset in July and January for each zone', (t) => {
  const july = noon(2024, 7, 15);
  const january = noon(2024, 1, 15);
  const expected: Record<TimeZoneLabel, { summer: number; winter: number }> = {
    EST: { summer: -240, winter: -300 },
    CET: { summer: 120, winter: 60 },
    PST: { summer: -420, winter: -480 },
  };
  for (const zone of ZONES) {
    const summer = timeFacts(july, zone, NOW_MS);
    const winter = timeFacts(january, zone, NOW_MS);
    t.true(summer.isDST, zone);
    t.is(summer.timezoneOffset, expected[zone].summer, zone);
    t.false(winter.isDST, zone);
    t.is(winter.timezoneOffset, expected[zone].winter, zone);
  }
});

test('EST spring-forward day (2024-03-10) has 23 hours', (t) => {
  // 01:30 EST, before the 02:00 -> 03:00 jump.
  const before = timeFacts(utc(2024, 3, 10, 6, 30), 'EST', NOW_MS);
  t.is(before.humanReadableTime24H, '01:30:00');
  t.false(before.isDST);
  t.is(before.timezoneOffset, -300);
  t.is(before.startOfDay, '2024-03-10T05:00:00.000Z'); // midnight EST
  t.is(before.endOfDay, '2024-03-11T03:59:59.999Z'); // the next midnight is EDT
  const dayMs = Date.parse(before.endOfDay) + 1 - Date.parse(before.startOfDay);
  t.is(dayMs, 23 * 3_600_000);
  // Real seconds to midnight: 21.5 hours, although the wall clock shows 22.5 hours to go.
  t.is(before.secondsUntilMidnight, 21.5 * 3600);

  // 03:30 EDT on the same day.
  const after = timeFacts(utc(2024, 3, 10, 7, 30), 'EST', NOW_MS);
  t.is(after.humanReadableTime24H, '03:30:00');
  t.true(after.isDST);
  t.is(after.timezoneOffset, -240);
  t.is(after.startOfDay, before.startOfDay);
  t.is(after.endOfDay, before.endOfDay);
  t.is(after.secondsUntilMidnight, 20.5 * 3600);
});

test('CET fall-back day (2024-10-27) has 25 hours and 02:30 twice', (t) => {
  const first = timeFacts(utc(2024, 10, 27, 0, 30), 'CET', NOW_MS); // 02:30 CEST
  const second = timeFacts(utc(2024, 10, 27, 1, 30), 'CET', NOW_MS); // 02:30 CET, an hour later
  for (const facts of [first, second]) {
    t.is(facts.humanReadableTime24H, '02:30:00');
    t.is(facts.formattedDate, '10/27/2024');
    t.is(facts.startOfDay, '2024-10-26T22:00:00.000Z');
    t.is(facts.endOfDay, '2024-10-27T22:59:59.999Z');
    t.is(Date.parse(facts.endOfDay) + 1 - Date.parse(facts.startOfDay), 25 * 3_600_000);
  }
  t.true(first.isDST);
  t.is(first.timezoneOffset, 120);
  t.false(second.isDST);
  t.is(second.timezoneOffset, 60);
  t.is(first.secondsUntilMidnight, 22.5 * 3600);
  t.is(second.secondsUntilMidnight, 21.5 * 3600);
});

test('PST fall-back day (2024-11-03) has 25 hours', (t) => {
  const facts = timeFacts(noon(2024, 11, 3), 'PST', NOW_MS); // 04:00 PST
  t.is(facts.startOfDay, '2024-11-03T07:00:00.000Z'); // midnight PDT
  t.is(facts.endOfDay, '2024-11-04T07:59:59.999Z'); // the next midnight is PST
  t.false(facts.isDST);
  t.is(facts.timezoneOffset, -480);
  t.is(facts.secondsUntilMidnight, 20 * 3600);
});

test('a timestamp exactly at midnight is the start of its day and has a whole day until the next', (t) => {
  const midnight = timeFacts(utc(2024, 1, 15, 5), 'EST', NOW_MS); // 2024-01-15 00:00 EST
  t.is(midnight.startOfDay, '2024-01-15T05:00:00.000Z');
  t.is(midnight.isoTimestamp, midnight.startOfDay);
  t.is(midnight.secondsUntilMidnight, 86_400);
  t.is(midnight.humanReadableDate, '1/15/2024, 12:00:00 AM');
  const lastSecond = timeFacts(utc(2024, 1, 16, 4, 59, 59), 'EST', NOW_MS); // 23:59:59 EST
  t.is(lastSecond.formattedDate, '01/15/2024');
  t.is(lastSecond.secondsUntilMidnight, 1);
  t.is(lastSecond.humanReadableDate, '1/15/2024, 11:59:59 PM');
});

test('12-hour clock: midnight is 12 AM, noon 12 PM, 13:00 is 1 PM', (t) => {
  const at = (hour: number) => timeFacts(utc(2024, 1, 15, hour), 'CET', NOW_MS); // CET = UTC+1 in January
  t.is(at(23).humanReadableDate, '1/16/2024, 12:00:00 AM');
  t.is(at(0).humanReadableDate, '1/15/2024, 1:00:00 AM');
  t.is(at(10).humanReadableDate, '1/15/2024, 11:00:00 AM');
  t.is(at(11).humanReadableDate, '1/15/2024, 12:00:00 PM');
  t.is(at(12).humanReadableDate, '1/15/2024, 1:00:00 PM');
  t.is(at(12).hours, '13');
});

test('a future timestamp gives negative *Ago values, no formattedTimeAgo and a formattedTimeFuture', (t) => {
  const ahead = 86_400 + 2 * 3600 + 3 * 60 + 4; // 1 day 2 h 3 min 4 s = 93784 s
  const facts = timeFacts(NOW_SECONDS + ahead, 'CET', NOW_MS);
  t.is(facts.secondsAgo, -93_784);
  t.is(facts.minutesAgo, -1563); // -1563.07, truncated toward zero
  t.is(facts.hoursAgo, -26);
  t.is(facts.daysAgo, -1);
  t.is(facts.weeksAgo, 0); // and not -0
  t.is(facts.monthsAgo, 0);
  t.is(facts.yearsAgo, 0);
  t.is(facts.ageInYears, 0);
  t.is(facts.formattedTimeAgo, null);
  t.is(facts.formattedTimeFuture, '1 days, 2 hours, 3 minutes, 4 seconds');
});

test('a far-future timestamp counts whole calendar years and months backwards', (t) => {
  // 2030-09-20 12:00 UTC: 6 years 3 months 5 days after now.
  const facts = timeFacts(noon(2030, 9, 20), 'EST', NOW_MS);
  t.is(facts.yearsAgo, -6);
  t.is(facts.monthsAgo, -75);
  t.is(facts.ageInYears, 0);
  // 6 * 365 days plus 2028-02-29 (2024-02-29 is before now), then 97 days from 15 June to 20 September.
  t.is(facts.daysAgo, -2288);
  t.is(facts.weeksAgo, -326); // -326.9, truncated toward zero
  t.is(facts.hoursAgo, -2288 * 24);
  t.is(facts.formattedTimeAgo, null);
  t.is(facts.formattedTimeFuture, '2288 days, 0 hours, 0 minutes, 0 seconds');
});

test('the present is "0 ago", with formattedTimeAgo set and formattedTimeFuture null', (t) => {
  const facts = timeFacts(NOW_SECONDS, 'PST', NOW_MS);
  for (const field of ['yearsAgo', 'monthsAgo', 'weeksAgo', 'daysAgo', 'hoursAgo', 'minutesAgo', 'secondsAgo'] as const) {
    t.is(facts[field], 0, field);
  }
  t.is(facts.formattedTimeAgo, '0 days, 0 hours, 0 minutes, 0 seconds');
  t.is(facts.formattedTimeFuture, null);
});

test('a past timestamp years back counts calendar years and months in the zone', (t) => {
  // 2000-01-01T00:00Z is 01:00 in Paris; to 2024-06-15 14:00 is 24 years 5 months 14 days.
  const cet = timeFacts(946_684_800, 'CET', NOW_MS);
  t.is(cet.yearsAgo, 24);
  t.is(cet.monthsAgo, 24 * 12 + 5);
  t.is(cet.ageInYears, 24);
  // In New York the same instant is 1999-12-31 19:00, so it is one day older but the same in whole months.
  const est = timeFacts(946_684_800, 'EST', NOW_MS);
  t.is(est.formattedDate, '12/31/1999');
  t.is(est.yearsAgo, 24);
  t.is(est.monthsAgo, 24 * 12 + 5);
  // An exact anniversary counts as a whole year.
  const anniversary = timeFacts(utc(2023, 6, 15, 12), 'EST', NOW_MS);
  t.is(anniversary.yearsAgo, 1);
  t.is(anniversary.monthsAgo, 12);
  const oneSecondShort = timeFacts(utc(2023, 6, 15, 12, 0, 1), 'EST', NOW_MS);
  t.is(oneSecondShort.yearsAgo, 0);
  t.is(oneSecondShort.monthsAgo, 11);
});

test('leap years: divisible by 4, except centuries not divisible by 400', (t) => {
  const leap = (year: number) => timeFacts(noon(year, 6, 1), 'CET', NOW_MS).isLeapYear;
  t.true(leap(2024));
  t.true(leap(2000));
  t.true(leap(2400));
  t.false(leap(2023));
  t.false(leap(1900));
  t.false(leap(2100));
  const feb29 = timeFacts(noon(2024, 2, 29), 'PST', NOW_MS);
  t.is(feb29.dayOfYear, 60);
  t.true(feb29.isLastDayOfMonth);
  t.is(feb29.fullMonthRange, '2024-02-01 to 2024-02-29');
  t.is(feb29.weekdayOrdinal, '29th');
  const march1Common = timeFacts(noon(1900, 3, 1), 'EST', NOW_MS);
  t.is(march1Common.dayOfYear, 60);
  t.is(march1Common.weekday, 'Thursday');
  t.is(timeFacts(noon(2023, 2, 28), 'EST', NOW_MS).fullMonthRange, '2023-02-01 to 2023-02-28');
  t.is(timeFacts(noon(2024, 12, 31), 'EST', NOW_MS).dayOfYear, 366);
});

test('ISO week numbers at year edges', (t) => {
  const week = (year: number, month: number, day: number) => timeFacts(noon(year, month, day), 'CET', NOW_MS);
  t.is(week(2021, 1, 1).weekNumber, 53); // a Friday, in the last week of 2020
  t.is(week(2021, 1, 1).fullWeekRange, '2020-12-28 to 2021-01-03');
  t.is(week(2021, 1, 1).fullYearRange, '2021-01-01 to 2021-12-31');
  t.is(week(2020, 12, 31).weekNumber, 53);
  t.is(week(2021, 1, 4).weekNumber, 1);
  t.is(week(2023, 1, 1).weekNumber, 52); // a Sunday, in the last week of 2022
  t.is(week(2024, 12, 30).weekNumber, 1); // a Monday, in week 1 of 2025
  t.is(week(2024, 12, 30).fullWeekRange, '2024-12-30 to 2025-01-05');
  t.is(week(2026, 1, 1).weekNumber, 1); // a Thursday
});

test('first Monday of the month', (t) => {
  const isFirstMonday = (year: number, month: number, day: number) =>
    timeFacts(noon(year, month, day), 'EST', NOW_MS).isFirstMondayOfMonth;
  t.true(isFirstMonday(2024, 7, 1)); // Monday the 1st
  t.true(isFirstMonday(2024, 6, 3)); // June 2024 starts on a Saturday
  t.true(isFirstMonday(2024, 4, 1));
  t.true(isFirstMonday(2024, 1, 1));
  t.true(isFirstMonday(2023, 8, 7)); // Monday the 7th: still the first
  t.false(isFirstMonday(2024, 7, 8)); // second Monday
  t.false(isFirstMonday(2024, 6, 7)); // a Friday within the first seven days
  t.false(isFirstMonday(2024, 6, 2)); // a Sunday
  // Depends on the zone's date: 2024-07-01T02:00Z is Monday the 1st in Paris, Sunday the 30th in Los Angeles.
  t.true(timeFacts(utc(2024, 7, 1, 2), 'CET', NOW_MS).isFirstMondayOfMonth);
  t.false(timeFacts(utc(2024, 7, 1, 2), 'PST', NOW_MS).isFirstMondayOfMonth);
});

test('last day of the month', (t) => {
  const isLast = (year: number, month: number, day: number) =>
    timeFacts(noon(year, month, day), 'CET', NOW_MS).isLastDayOfMonth;
  t.true(isLast(2024, 4, 30));
  t.false(isLast(2024, 4, 29));
  t.true(isLast(2024, 1, 31));
  t.true(isLast(2023, 2, 28));
  t.false(isLast(2024, 2, 28));
  t.true(isLast(2024, 2, 29));
  t.true(isLast(2024, 12, 31));
  t.false(isLast(2024, 12, 30));
  t.is(timeFacts(noon(2024, 4, 15), 'CET', NOW_MS).fullMonthRange, '2024-04-01 to 2024-04-30');
});

test('weekdayOrdinal suffixes', (t) => {
  const expected: Record<number, string> = {
    1: '1st',
    2: '2nd',
    3: '3rd',
    4: '4th',
    10: '10th',
    11: '11th',
    12: '12th',
    13: '13th',
    14: '14th',
    20: '20th',
    21: '21st',
    22: '22nd',
    23: '23rd',
    24: '24th',
    30: '30th',
    31: '31st',
  };
  for (const [day, text] of Object.entries(expected)) {
    t.is(timeFacts(noon(2024, 1, Number(day)), 'PST', NOW_MS).weekdayOrdinal, text, day);
  }
});

test('ordinal() keeps 11-13 as "th" past 100 too', (t) => {
  t.is(ordinal(101), '101st');
  t.is(ordinal(111), '111th');
  t.is(ordinal(112), '112th');
  t.is(ordinal(113), '113th');
  t.is(ordinal(122), '122nd');
  t.is(ordinal(0), '0th');
});

test('meteorological seasons and quarters by month', (t) => {
  const cases: [month: number, day: number, season: TimeFacts['season'], quarter: TimeFacts['quarter']][] = [
    [1, 15, 'Winter', 'Q1'],
    [2, 29, 'Winter', 'Q1'],
    [3, 1, 'Spring', 'Q1'],
    [3, 31, 'Spring', 'Q1'],
    [4, 1, 'Spring', 'Q2'],
    [5, 31, 'Spring', 'Q2'],
    [6, 1, 'Summer', 'Q2'],
    [6, 30, 'Summer', 'Q2'],
    [7, 1, 'Summer', 'Q3'],
    [8, 31, 'Summer', 'Q3'],
    [9, 1, 'Autumn', 'Q3'],
    [9, 30, 'Autumn', 'Q3'],
    [10, 1, 'Autumn', 'Q4'],
    [11, 30, 'Autumn', 'Q4'],
    [12, 1, 'Winter', 'Q4'],
    [12, 31, 'Winter', 'Q4'],
  ];
  for (const [month, day, season, quarter] of cases) {
    const facts = timeFacts(noon(2024, month, day), 'EST', NOW_MS);
    t.is(facts.season, season, `${month}-${day}`);
    t.is(facts.quarter, quarter, `${month}-${day}`);
  }
});

test('weekday names and weekends', (t) => {
  // 2024-06-10 is a Monday.
  const names = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
  names.forEach((name, index) => {
    const facts = timeFacts(noon(2024, 6, 10 + index), 'CET', NOW_MS);
    t.is(facts.weekday, name);
    t.is(facts.isWeekend, index >= 5, name);
    t.is(facts.fullWeekRange, '2024-06-10 to 2024-06-16', name);
  });
});

test('chatFormats are Discord tags with styles f, t, d, D, t, T, R for keys 1 to 7', (t) => {
  t.deepEqual(timeFacts(0, 'CET', NOW_MS).chatFormats, {
    chatFormat1: '<t:0:f>',
    chatFormat2: '<t:0:t>',
    chatFormat3: '<t:0:d>',
    chatFormat4: '<t:0:D>',
    chatFormat5: '<t:0:t>',
    chatFormat6: '<t:0:T>',
    chatFormat7: '<t:0:R>',
  });
  const before1970 = timeFacts(-86_400, 'PST', NOW_MS);
  t.is(before1970.chatFormats.chatFormat7, '<t:-86400:R>');
  t.is(before1970.unixMilliseconds, -86_400_000);
  t.is(before1970.isoTimestamp, '1969-12-31T00:00:00.000Z');
  t.deepEqual(Object.keys(before1970.chatFormats), [1, 2, 3, 4, 5, 6, 7].map((key) => `chatFormat${key}`));
});

test('currentYear, currentYearStartDate and currentYearEndDate come from now, not from the timestamp', (t) => {
  const old = timeFacts(noon(1990, 3, 3), 'EST', NOW_MS);
  t.is(old.currentYear, 2024);
  t.is(old.currentYearStartDate, '2024-01-01');
  t.is(old.currentYearEndDate, '2024-12-31');
  t.is(old.fullYearRange, '1990-01-01 to 1990-12-31');
  // And in the zone: 2024-12-31T23:30Z is already 2025 in Paris but still 2024 in New York.
  const newYearsEve = Date.UTC(2024, 11, 31, 23, 30);
  const cet = timeFacts(noon(1990, 3, 3), 'CET', newYearsEve);
  t.is(cet.currentYear, 2025);
  t.is(cet.currentYearStartDate, '2025-01-01');
  t.is(cet.currentYearEndDate, '2025-12-31');
  t.is(timeFacts(noon(1990, 3, 3), 'EST', newYearsEve).currentYear, 2024);
});

test('the ends of the accepted range keep four-digit years in every zone', (t) => {
  const first = timeFacts(UNIX_RANGE.min, 'PST', NOW_MS); // 1900-01-01T00:00Z = 1899-12-31 16:00 PST
  t.is(first.formattedDate, '12/31/1899');
  t.is(first.utcTimestamp, 'Mon, 01 Jan 1900 00:00:00 GMT');
  t.is(first.isoTimestamp, '1900-01-01T00:00:00.000Z');
  t.is(first.yearsAgo, 124);
  const last = timeFacts(UNIX_RANGE.max, 'CET', NOW_MS); // 3000-01-01 01:00 CET
  t.is(last.formattedDate, '01/01/3000');
  t.is(last.formattedTimeExtra, 'January 1, 3000');
  t.is(last.utcTimestamp, 'Wed, 01 Jan 3000 00:00:00 GMT');
  t.is(last.yearsAgo, -975);
});

test('Paris Mean Time (+0:09:21, before March 1911) is reported as a whole-minute offset', (t) => {
  const facts = timeFacts(noon(1910, 7, 15), 'CET', NOW_MS);
  t.is(facts.timezoneOffset, 9);
  t.false(facts.isDST);
  t.is(facts.humanReadableTime24H, '12:09:21');
  t.is(facts.startOfDay, '1910-07-14T23:50:39.000Z');
});

test("isDST is the time zone database's own flag, also where summer time lasted all year or the zone changed", (t) => {
  // The periods the independent check (tzdata, dateutil) found wrong, each with a mid and edge date,
  // and standard-time neighbours that must stay false. Comparing January and July offsets gets all of them wrong.
  const cases: [TimeZoneLabel, number, boolean, string][] = [
    ['EST', noon(1943, 1, 1), true, 'Eastern War Time, 1943-01-01'],
    ['EST', noon(1944, 12, 15), true, 'Eastern War Time, winter 1944'],
    ['EST', noon(1945, 9, 29), true, 'Eastern Peace Time, 1945-09-29'],
    ['EST', noon(1945, 10, 15), false, 'EST again after 1945-09-30'],
    ['PST', noon(1943, 1, 1), true, 'Pacific War Time, 1943-01-01'],
    ['PST', noon(1945, 9, 29), true, 'Pacific Peace Time, 1945-09-29'],
    ['PST', noon(1946, 1, 15), false, 'PST in 1946'],
    ['CET', noon(1941, 1, 1), true, 'Paris on CEST all year, 1941-01-01'],
    ['CET', noon(1942, 11, 1), true, 'CEST until 1942-11-02'],
    ['CET', noon(1943, 1, 15), false, 'CET in winter 1943'],
    ['CET', noon(1944, 10, 8), true, 'WEST from 1944-10-08'],
    ['CET', noon(1945, 4, 1), true, 'WEST until 1945-04-02'],
    ['CET', noon(1911, 1, 1), false, 'Paris Mean Time, 1911-01-01'],
    ['CET', noon(1911, 3, 10), false, 'Paris Mean Time, 1911-03-10'],
    ['CET', noon(1911, 7, 15), false, 'WET, standard time, in summer 1911 (France kept no summer time before 1916)'],
    ['CET', noon(2024, 1, 15), false, 'CET, January 2024'],
    ['CET', noon(2024, 7, 15), true, 'CEST, July 2024'],
    ['EST', noon(2060, 7, 15), true, 'EDT in 2060, past the last listed transition'],
    ['EST', noon(2060, 1, 15), false, 'EST in 2060'],
    ['PST', noon(2999, 7, 15), true, 'PDT at the end of the range'],
  ];
  for (const [zone, unix, expected, what] of cases) t.is(timeFacts(unix, zone, NOW_MS).isDST, expected, `${zone} ${what}`);
});

test('every field matches the response schema across the whole range in every zone', (t) => {
  const step = 1009 * 86_400 + 3_607; // about 2.8 years plus an hour, so times of day vary
  let checked = 0;
  for (const zone of ZONES) {
    for (let unix = UNIX_RANGE.min; unix <= UNIX_RANGE.max; unix += step) {
      const facts = timeFacts(unix, zone, NOW_MS);
      const parsed = timeFactsSchema.safeParse(facts);
      if (!parsed.success) {
        t.fail(`${zone} ${unix}: ${parsed.error.message}`);
        return;
      }
      const start = Date.parse(facts.startOfDay);
      const end = Date.parse(facts.endOfDay);
      if (!(start <= unix * 1000 && unix * 1000 <= end && end - start >= 22 * 3_600_000 && end - start < 26 * 3_600_000)) {
        t.fail(`${zone} ${unix}: day ${facts.startOfDay} to ${facts.endOfDay}`);
        return;
      }
      if (facts.secondsUntilMidnight !== Math.round((end + 1) / 1000) - unix) {
        t.fail(`${zone} ${unix}: secondsUntilMidnight ${facts.secondsUntilMidnight}`);
        return;
      }
      checked += 1;
    }
    t.true(timeFactsSchema.safeParse(timeFacts(UNIX_RANGE.max, zone, NOW_MS)).success, zone);
  }
  t.true(checked > 1000);
});
