import { compactNumber } from '@utility-api/compact-number';
import { DEFAULT_CARD_ACCENT, DEFAULT_LEADERBOARD_TITLE, DEFAULT_SCORE_LABEL, highlightPlacement, parseHexColor, type LeaderboardOptions, type LeaderboardRow, type Rgb } from '@utility-api/render-jobs';
import { type Canvas, type CanvasRenderingContext2D, createCanvas } from 'canvas';
import { checkImageCached } from '../cache/card-caches.ts';
import { darken, lighten, rgba } from '../color/color.ts';
import { prepareCardFonts } from '../fonts/card-fonts.ts';
import { CardImageError } from '../images/card-image-error.ts';
import { CardPixelBudget } from '../images/decode-image.ts';
import { contrastRatio, LARGE_TEXT_CONTRAST, relativeLuminance, SMALL_TEXT_CONTRAST } from '../legibility/contrast.ts';
import { GROUND_TEXT } from '../legibility/ground.ts';
import type { PlacedText } from '../layout/placed-text.ts';
import { generatedCardBackground } from '../paint/card-backgrounds.ts';
import { accentColor, resolvePalette } from '../paint/palette.ts';
import { circlePath, coverCrop, roundedRectPath, withStops } from '../paint/shapes.ts';
import { PNG_ENCODING, type RenderedCard } from '../render-card.ts';
import { drawDefaultAvatar } from '../steps/avatar.ts';
import { PODIUM_COLORS } from '../steps/rank-bar.ts';
import { visibleText } from '../text/clean-text.ts';
import { drawText, fitText, measureText, type TextStyle } from '../text/rich-text.ts';
import {
  BOARD,
  BOARD_AVATAR,
  BOARD_NAME,
  BOARD_RANK,
  BOARD_ROWS,
  BOARD_SEPARATOR,
  BOARD_STATS,
  BOARD_TITLE,
  leaderboardHeight,
} from './leaderboard-layout.ts';

/**
 * What a leaderboard card is drawn from: the validated board and each avatar's bytes, already
 * fetched (the card package never fetches), in drawing order: one per row, then the highlighted
 * member's when it is drawn as an extra row. Undefined: the default avatar. `warnings` are the
 * fetcher's (an avatar it could not get); the card adds its own (bytes it could not decode).
 */
export interface LeaderboardInput {
  kind: 'leaderboard';
  options: LeaderboardOptions;
  avatars: readonly (Buffer | undefined)[];
  warnings?: readonly string[] | undefined;
}

/** Numbers as the profile card writes them: truncated, never rounded up. */
const boardNumber = (value: number) => compactNumber(value, { round: 'down' });

type BoardRow = { row: LeaderboardRow; top: number; highlighted: boolean; avatar: Canvas | undefined; field: string };

/** The rows in drawing order, each with its top edge and whether it is the highlighted member's. */
function placeRows(options: LeaderboardOptions): { rows: Omit<BoardRow, 'avatar'>[]; separatorTop: number | undefined; height: number } {
  const placement = highlightPlacement(options);
  const extra = placement !== undefined && 'extra' in placement ? placement.extra : undefined;
  const step = BOARD_ROWS.height + BOARD_ROWS.gap;
  const rows = options.rows.map((row, index) => ({
    row,
    top: BOARD_ROWS.top + index * step,
    highlighted: placement !== undefined && 'index' in placement && placement.index === index,
    field: `rows.${index}`,
  }));
  let separatorTop: number | undefined;
  if (extra) {
    separatorTop = BOARD_ROWS.top + options.rows.length * step - BOARD_ROWS.gap;
    rows.push({ row: extra, top: separatorTop + BOARD_SEPARATOR.height, highlighted: true, field: 'highlight' });
  }
  return { rows, separatorTop, height: leaderboardHeight(options.rows.length, extra !== undefined) };
}

/** Every avatar decoded (in parallel, after each is checked and charged to the card's budget in order); one that fails is the default avatar with a warning. */
async function decodeAvatars(input: LeaderboardInput, fields: string[]): Promise<{ avatars: (Canvas | undefined)[]; warnings: string[] }> {
  const budget = new CardPixelBudget();
  const side = BOARD_AVATAR.radius * 2;
  const warnings: string[] = [];
  const pending: ((() => Promise<Canvas | undefined>) | undefined)[] = [];
  const refused = (error: unknown) => {
    if (!(error instanceof CardImageError)) throw error;
    warnings.push(error.message);
    return undefined;
  };
  for (const [index, field] of fields.entries()) {
    const bytes = input.avatars[index];
    if (bytes === undefined) {
      pending.push(undefined);
      continue;
    }
    try {
      const decode = await checkImageCached(bytes, { field: `${field}.avatar`, budget, side });
      pending.push(() => decode().then((image) => image.source, refused));
    } catch (error) {
      pending.push(() => Promise.resolve(refused(error)));
    }
  }
  const avatars = await Promise.all(pending.map((decode) => (decode === undefined ? Promise.resolve(undefined) : decode())));
  return { avatars, warnings };
}

const statsStyles = (value: string) => ({
  label: { size: BOARD_STATS.labelSize, weight: 700, color: GROUND_TEXT.dark.label, letterSpacing: 1 } satisfies TextStyle,
  value: { size: BOARD_STATS.valueSize, weight: 800, color: value } satisfies TextStyle,
});

/** One row's texts: rank, name, then `LVL <level>` and `<score> <label>` right-aligned. */
function rowTexts(context: CanvasRenderingContext2D, options: LeaderboardOptions, placed: Omit<BoardRow, 'avatar'>): PlacedText[] {
  const { row, top } = placed;
  const middle = top + BOARD_ROWS.height / 2;
  const texts: PlacedText[] = [];
  const podium = options.autoColorRank ? PODIUM_COLORS.dark[row.rank] : undefined;
  const rankFit = fitText(context, `#${boardNumber(row.rank)}`, { size: BOARD_RANK.size, weight: 800, color: podium ?? GROUND_TEXT.dark.value }, BOARD_RANK.width, BOARD_RANK.minSize);
  texts.push({ role: 'rank', text: rankFit.text, x: BOARD_RANK.left, baseline: middle + rankFit.style.size * 0.36, width: rankFit.width, style: rankFit.style, minContrast: LARGE_TEXT_CONTRAST });

  // Right to left: the score, then the level before it.
  const styles = statsStyles(GROUND_TEXT.dark.value);
  const statsBaseline = middle + BOARD_STATS.valueSize * 0.36;
  let right: number = BOARD_STATS.right;
  const pushRight = (role: string, text: string, style: TextStyle, gapAfter: number, minContrast: number) => {
    const width = measureText(context, text, style);
    texts.push({ role, text, x: right - width, baseline: statsBaseline, width, style, minContrast });
    right -= width + gapAfter;
  };
  if (row.score !== undefined) {
    pushRight('score label', visibleText(options.scoreLabel) ?? DEFAULT_SCORE_LABEL, styles.label, BOARD_STATS.labelGap, SMALL_TEXT_CONTRAST);
    pushRight('score', boardNumber(row.score), styles.value, BOARD_STATS.groupGap, LARGE_TEXT_CONTRAST);
  }
  if (row.level !== undefined) {
    pushRight('level', boardNumber(row.level), styles.value, BOARD_STATS.labelGap, LARGE_TEXT_CONTRAST);
    pushRight('level label', 'LVL', styles.label, BOARD_STATS.groupGap, SMALL_TEXT_CONTRAST);
  }
  const nameRoom = right + BOARD_STATS.groupGap - BOARD_NAME.gapToStats - BOARD_NAME.left;
  // Never smaller than the type scale's name size: a long name is cut with "…" instead.
  const name = fitText(context, visibleText(row.name) ?? '', { size: BOARD_NAME.size, weight: 800, color: '#ffffff' }, nameRoom, BOARD_NAME.size);
  texts.push({ role: 'name', text: name.text, x: BOARD_NAME.left, baseline: middle + BOARD_NAME.size * 0.36, width: name.width, style: name.style, minContrast: LARGE_TEXT_CONTRAST });
  return texts;
}

/** The dimmest text on a row (the labels) must keep small-text contrast on the highlighted row, with the legibility step's margin. */
const HIGHLIGHT_CONTRAST = SMALL_TEXT_CONTRAST + 0.25;

/**
 * The highlighted row's fill: the accent darkened by at least 35 %, and further until the labels
 * reach their contrast on it, so a light accent (white, pale yellow) still carries white text.
 */
export function highlightFill(accent: string): Rgb {
  const color = parseHexColor(accent);
  const label = relativeLuminance(parseHexColor(GROUND_TEXT.dark.label));
  let amount = 0.35;
  while (amount < 1 && contrastRatio(relativeLuminance(darken(color, amount)), label) < HIGHLIGHT_CONTRAST) amount += 0.05;
  return darken(color, Math.min(1, amount));
}

function drawRowBox(context: CanvasRenderingContext2D, top: number, highlighted: boolean, accent: string): void {
  const { inset, height, radius } = BOARD_ROWS;
  roundedRectPath(context, inset, top, BOARD.width - inset * 2, height, radius);
  if (highlighted) {
    const color = parseHexColor(accent);
    // Opaque, from the contrast-safe tone to a darker one: nothing of the art beneath can lighten it.
    const fill = highlightFill(accent);
    context.fillStyle = withStops(context.createLinearGradient(inset, 0, BOARD.width - inset, 0), [[0, rgba(fill)], [1, rgba(darken(fill, 0.3))]]);
    context.fill();
    context.lineWidth = 3;
    context.strokeStyle = rgba(lighten(color, 0.2));
    context.stroke();
  } else {
    context.fillStyle = 'rgba(12, 14, 20, 0.55)';
    context.fill();
    context.lineWidth = 1;
    context.strokeStyle = 'rgba(255, 255, 255, 0.08)';
    context.stroke();
  }
}

function drawRowAvatar(context: CanvasRenderingContext2D, placed: BoardRow, palette: ReturnType<typeof resolvePalette>): void {
  const centerY = placed.top + BOARD_ROWS.height / 2;
  const { centerX, radius } = BOARD_AVATAR;
  context.save();
  circlePath(context, centerX, centerY, radius);
  context.clip();
  if (placed.avatar) {
    const crop = coverCrop(placed.avatar.width, placed.avatar.height, 1, 1);
    context.drawImage(placed.avatar, crop.x, crop.y, crop.width, crop.height, centerX - radius, centerY - radius, radius * 2, radius * 2);
  } else {
    drawDefaultAvatar(context, palette, centerX, centerY, radius);
  }
  context.restore();
}

/** Three dots in the gap before the highlighted member's own row: rows were left out between. */
function drawSeparator(context: CanvasRenderingContext2D, top: number): void {
  const centerY = top + BOARD_SEPARATOR.height / 2;
  context.fillStyle = 'rgba(255, 255, 255, 0.7)';
  for (const offset of [-1, 0, 1]) {
    circlePath(context, BOARD.width / 2 + offset * BOARD_SEPARATOR.dotGap, centerY, BOARD_SEPARATOR.dotRadius);
    context.fill();
  }
}

/**
 * Draws a leaderboard card (docs/card-design.md, "Leaderboard card"): a pure function from the
 * board and its avatar bytes to PNG bytes. The background is generated from the accent color (a
 * board belongs to a server, not to one profile); every text stands on a dark row box, so white
 * text keeps its contrast whatever the art beneath.
 */
export async function renderLeaderboardCard(input: LeaderboardInput): Promise<RenderedCard> {
  prepareCardFonts();
  const started = performance.now();
  const { options } = input;
  const accent = options.accentColor ?? DEFAULT_CARD_ACCENT;
  const layout = placeRows(options);
  const decoded = await decodeAvatars(input, layout.rows.map((row) => row.field));
  const rows: BoardRow[] = layout.rows.map((row, index) => ({ ...row, avatar: decoded.avatars[index] }));
  const title = visibleText(options.title) ?? DEFAULT_LEADERBOARD_TITLE;
  // The art and default avatars take their hues from the accent, seeded by the title.
  const palette = resolvePalette({ accentColor: accent }, false);
  const prepared = performance.now();

  const canvas = createCanvas(BOARD.width, layout.height);
  const context = canvas.getContext('2d');
  context.imageSmoothingEnabled = true;
  context.patternQuality = 'good';
  roundedRectPath(context, 0, 0, BOARD.width, layout.height, BOARD.radius);
  context.clip();
  context.drawImage(generatedCardBackground(palette, title, BOARD.width, layout.height), 0, 0);
  context.fillStyle = 'rgba(0, 0, 0, 0.35)';
  context.fillRect(0, 0, BOARD.width, layout.height);

  const texts: PlacedText[] = [];
  const titleFit = fitText(context, title, { size: BOARD_TITLE.size, weight: 800, color: '#ffffff' }, BOARD.width - BOARD.padding * 2 - BOARD_ROWS.inset, BOARD_TITLE.minSize);
  texts.push({ role: 'title', text: titleFit.text, x: BOARD_ROWS.inset + 4, baseline: BOARD_TITLE.baseline, width: titleFit.width, style: titleFit.style, minContrast: LARGE_TEXT_CONTRAST });
  roundedRectPath(context, BOARD_ROWS.inset + 4, BOARD_TITLE.ruleTop, BOARD_TITLE.ruleWidth, BOARD_TITLE.ruleHeight, BOARD_TITLE.ruleHeight / 2);
  context.fillStyle = rgba(lighten(parseHexColor(accent), 0.15));
  context.fill();

  for (const row of rows) {
    drawRowBox(context, row.top, row.highlighted, accent);
    drawRowAvatar(context, row, palette);
    texts.push(...rowTexts(context, options, row));
  }
  if (layout.separatorTop !== undefined) drawSeparator(context, layout.separatorTop);
  // No text shadow, unlike the profile card: every run but the title stands on a dark row box, and
  // blurring some 55 runs cost as much CPU as the rest of the board (101.7 against 57.2 ms per
  // ten-row board, process CPU time, scripts measured on this machine).
  for (const run of texts) drawText(context, run.text, run.x, run.baseline, run.style);

  const inset = BOARD.borderWidth / 2;
  roundedRectPath(context, inset, inset, BOARD.width - BOARD.borderWidth, layout.height - BOARD.borderWidth, BOARD.radius - inset);
  context.lineWidth = BOARD.borderWidth;
  context.strokeStyle = rgba(lighten(palette.primary, 0.15));
  context.stroke();
  const drawn = performance.now();
  const png = canvas.toBuffer('image/png', PNG_ENCODING);
  const encoded = performance.now();
  return {
    png,
    width: canvas.width,
    height: canvas.height,
    timings: { prepare: prepared - started, draw: drawn - prepared, encode: encoded - drawn, steps: {} },
    warnings: [...(input.warnings ?? []), ...decoded.warnings],
    accentColor: accentColor(palette),
    texts,
  };
}
