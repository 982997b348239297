import { compactNumber } from '@utility-api/compact-number';
import { DEFAULT_LEADERBOARD_TITLE, DEFAULT_SCORE_LABEL, highlightPlacement, type LeaderboardOptions, type LeaderboardRow } from '@utility-api/render-jobs';
import { cappedAltText } from '../text/alt-text.ts';
import { spokenText, visibleText } from '../text/clean-text.ts';

const boardNumber = (value: number) => compactNumber(value, { round: 'down' });

/**
 * One plain sentence for screen readers, with what the card draws: "Leaderboard “Top chatters”:
 * #1 Ada, level 12, 5.2K XP; #2 …; your row: #27 Kai, level 3, 410 XP." At most Discord's 1024
 * characters (cut with an ellipsis, as the profile card's).
 */
export function leaderboardAltText(options: LeaderboardOptions): string {
  const label = visibleText(options.scoreLabel) ?? DEFAULT_SCORE_LABEL;
  const said = (row: LeaderboardRow) =>
    [`#${boardNumber(row.rank)} ${visibleText(row.name) ?? ''}`, ...(row.level === undefined ? [] : [`level ${boardNumber(row.level)}`]), ...(row.score === undefined ? [] : [`${boardNumber(row.score)} ${label}`])].join(', ');
  const placement = highlightPlacement(options);
  const rows = options.rows.map((row, index) => (placement !== undefined && 'index' in placement && placement.index === index ? `${said(row)} (your row)` : said(row)));
  const extra = placement !== undefined && 'extra' in placement ? `; your row: ${said(placement.extra)}` : '';
  return cappedAltText(spokenText(`Leaderboard “${visibleText(options.title) ?? DEFAULT_LEADERBOARD_TITLE}”: ${rows.join('; ')}${extra}.`));
}
