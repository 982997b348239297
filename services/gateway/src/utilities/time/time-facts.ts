import { Temporal } from 'temporal-polyfill';
import type { TimeFacts } from './time-facts-schema.ts';
import { isDaylightSavingAt, loadZoneRules } from './zone-daylight-saving.ts';

const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;

/** Meteorological seasons of the northern hemisphere, where all three supported zones are. */
function seasonOfMonth(month: number): 'Winter' | 'Spring' | 'Summer' | 'Autumn' {
  if (month === 12 || month <= 2) return 'Winter';
  if (month <= 5) return 'Spring';
  if (month <= 8) return 'Summer';
  return 'Autumn';
}

export function ordinal(value: number): string {
  const lastTwo = value % 100;
  if (lastTwo >= 11 && lastTwo <= 13) return `${value}th`;
  const suffix = ['th', 'st', 'nd', 'rd'][value % 10] ?? 'th';
  return `${value}${suffix}`;
}

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

/** The zone labels the API accepts and the IANA zones behind them (daylight saving observed). */
const TIME_ZONES = { EST: 'America/New_York', CET: 'Europe/Paris', PST: 'America/Los_Angeles' } as const;

export type TimeZoneLabel = keyof typeof TIME_ZONES;

const MS = { second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

const CHAT_STYLES = ['f', 't', 'd', 'D', 't', 'T', 'R'] as const;

function isoInstant(instant: Temporal.Instant): string {
  return instant.toString({ fractionalSecondDigits: 3 });
}

function durationText(milliseconds: number): string {
  const days = Math.floor(milliseconds / MS.day);
  const hours = Math.floor((milliseconds % MS.day) / MS.hour);
  const minutes = Math.floor((milliseconds % MS.hour) / MS.minute);
  const seconds = Math.floor((milliseconds % MS.minute) / MS.second);
  return `${days} days, ${hours} hours, ${minutes} minutes, ${seconds} seconds`;
}

/** Reads the daylight saving rules of every zone the endpoint offers: a missing tzdata fails at boot, not on a request. */
export function loadTimeZoneRules(): void {
  for (const zone of Object.values(TIME_ZONES)) loadZoneRules(zone);
}

function range(from: Temporal.PlainDate, to: Temporal.PlainDate): string {
  return `${from.toString()} to ${to.toString()}`;
}

function twelveHourClock(moment: Temporal.ZonedDateTime): string {
  const hour12 = moment.hour % 12 === 0 ? 12 : moment.hour % 12;
  return `${hour12}:${twoDigits(moment.minute)}:${twoDigits(moment.second)} ${moment.hour < 12 ? 'AM' : 'PM'}`;
}

/**
 * Minutes east of UTC, rounded to a whole minute: the contract says integer, and the one offset in
 * range that is not whole minutes is Paris Mean Time (+0:09:21, until 1911-03-11), shown as 9.
 */
function offsetMinutes(moment: Temporal.ZonedDateTime): number {
  return Math.round(moment.offsetNanoseconds / 60e9);
}

function truncate(value: number): number {
  // Math.trunc leaves -0 for small negative values; JSON would print it as 0 anyway, tests would not.
  return Math.trunc(value) || 0;
}

export function timeFacts(unixSeconds: number, label: TimeZoneLabel, nowEpochMs: number): TimeFacts {
  const zone = TIME_ZONES[label];
  const epochMs = unixSeconds * MS.second;
  const instant = Temporal.Instant.fromEpochMilliseconds(epochMs);
  const moment = instant.toZonedDateTimeISO(zone);
  const now = Temporal.Instant.fromEpochMilliseconds(nowEpochMs).toZonedDateTimeISO(zone);
  const date = moment.toPlainDate();

  const elapsedMs = nowEpochMs - epochMs;
  const calendarElapsed = moment.until(now, { largestUnit: 'years' });
  const dayStart = moment.startOfDay();
  const nextDayStart = dayStart.add({ days: 1 });
  const weekStart = date.subtract({ days: moment.dayOfWeek - 1 });
  const monthStart = date.with({ day: 1 });
  const chatFormats = Object.fromEntries(CHAT_STYLES.map((style, index) => [`chatFormat${index + 1}`, `<t:${unixSeconds}:${style}>`])) as TimeFacts['chatFormats'];
  const monthName = MONTH_NAMES[moment.month - 1] as string;

  return {
    timezone: label,
    yearsAgo: calendarElapsed.years,
    monthsAgo: calendarElapsed.years * 12 + calendarElapsed.months,
    weeksAgo: truncate(elapsedMs / (MS.day * 7)),
    daysAgo: truncate(elapsedMs / MS.day),
    hoursAgo: truncate(elapsedMs / MS.hour),
    minutesAgo: truncate(elapsedMs / MS.minute),
    secondsAgo: truncate(elapsedMs / MS.second),
    formattedTimeAgo: elapsedMs >= 0 ? durationText(elapsedMs) : null,
    formattedTimeFuture: elapsedMs < 0 ? durationText(-elapsedMs) : null,
    isoTimestamp: isoInstant(instant),
    formattedDate: `${twoDigits(moment.month)}/${twoDigits(moment.day)}/${String(moment.year).padStart(4, '0')}`,
    humanReadableDate: `${moment.month}/${moment.day}/${moment.year}, ${twelveHourClock(moment)}`,
    utcTimestamp: new Date(epochMs).toUTCString(),
    timezoneOffset: offsetMinutes(moment),
    weekday: WEEKDAY_NAMES[moment.dayOfWeek - 1] as string,
    unixMilliseconds: epochMs,
    unixTimestamp: unixSeconds,
    dayOfYear: moment.dayOfYear,
    season: seasonOfMonth(moment.month),
    isLeapYear: moment.inLeapYear,
    ageInYears: Math.max(0, calendarElapsed.years),
    startOfDay: isoInstant(dayStart.toInstant()),
    endOfDay: isoInstant(nextDayStart.toInstant().subtract({ milliseconds: 1 })),
    quarter: `Q${Math.ceil(moment.month / 3)}` as TimeFacts['quarter'],
    isDST: isDaylightSavingAt(zone, Math.floor(epochMs / MS.second), moment.offsetNanoseconds / 1e9),
    weekNumber: moment.weekOfYear ?? 0,
    isWeekend: moment.dayOfWeek >= 6,
    monthName,
    weekdayOrdinal: ordinal(moment.day),
    secondsUntilMidnight: Math.ceil((nextDayStart.epochMilliseconds - epochMs) / MS.second),
    fullWeekRange: range(weekStart, weekStart.add({ days: 6 })),
    fullMonthRange: range(monthStart, monthStart.with({ day: monthStart.daysInMonth })),
    fullYearRange: range(date.with({ month: 1, day: 1 }), date.with({ month: 12, day: 31 })),
    currentYearStartDate: Temporal.PlainDate.from({ year: now.year, month: 1, day: 1 }).toString(),
    currentYearEndDate: Temporal.PlainDate.from({ year: now.year, month: 12, day: 31 }).toString(),
    chatFormats,
    hours: twoDigits(moment.hour),
    min: twoDigits(moment.minute),
    sec: twoDigits(moment.second),
    humanReadableTime24H: `${twoDigits(moment.hour)}:${twoDigits(moment.minute)}:${twoDigits(moment.second)}`,
    isFirstMondayOfMonth: moment.dayOfWeek === 1 && moment.day <= 7,
    isLastDayOfMonth: moment.day === moment.daysInMonth,
    currentYear: now.year,
    formattedTimeExtra: `${monthName} ${moment.day}, ${moment.year}`,
  };
}
