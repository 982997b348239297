import { compactNumber } from '@utility-api/compact-number';
import { DEFAULT_CARD_ACCENT, DEFAULT_LEADERBOARD_TITLE, DEFAULT_SCORE_LABEL, highlightPlacement, parseHexColor, PODIUM_RANKS, type LeaderboardOptions, type LeaderboardRow, type Rgb } from '@utility-api/render-jobs';
import { type Canvas, type CanvasRenderingContext2D, createCanvas } from 'canvas';
import { checkImageCached, staticLayerCache } from '../cache/card-caches.ts';
import { darken, lighten, rgba } from '../color/color.ts';
import { prepareCardFonts } from '../fonts/card-fonts.ts';
import { CardImageError } from '../images/card-image-error.ts';
import { CardPixelBudget } from '../images/decode-image.ts';
import { contrastRatio, LARGE_TEXT_CONTRAST, relativeLuminance, SMALL_TEXT_CONTRAST } from '../legibility/contrast.ts';
import { GROUND_TEXT } from '../legibility/ground.ts';
import { alphaNeeded, worstPixel } from '../legibility/legibility-step.ts';
import { textBounds, textColor, type PlacedText } from '../layout/placed-text.ts';
import { checkPhotoBackground, generatedCardBackground } from '../paint/card-backgrounds.ts';
import { accentColor, resolvePalette } from '../paint/palette.ts';
import { circlePath, coverCrop, type Rect, roundedRectPath, withStops } from '../paint/shapes.ts';
import { PNG_ENCODING, type RenderedCard } from '../render-card.ts';
import { drawDefaultAvatar } from '../steps/avatar.ts';
import { PODIUM_COLORS } from '../steps/rank-bar.ts';
import { graphemesOf } from '../text/rich-text.ts';
import { visibleText } from '../text/clean-text.ts';
import { drawText, fitText, measureText, type TextStyle } from '../text/rich-text.ts';
import {
  BOARD,
  BOARD_AVATAR,
  BOARD_GUILD,
  BOARD_HIGHLIGHT,
  BOARD_NAME,
  BOARD_PODIUM,
  BOARD_RANK,
  BOARD_ROWS,
  BOARD_SEPARATOR,
  BOARD_STATS,
  BOARD_TITLE,
  type BoardBands,
  leaderboardHeight,
  listTop,
  podiumTop,
} from './leaderboard-layout.ts';
import { drawFromLayer, drawTabular, tabularWidth } from './tabular-figures.ts';

/**
 * What a leaderboard card is drawn from: the validated board and its images' bytes, already
 * fetched (the card package never fetches). `avatars`: one per row of `options.rows`, in that
 * order, then the highlighted member's when it is drawn as an extra row; undefined is the default
 * avatar. `guildIcon`: the server header's icon (`guild.iconUrl`), `background`: the `background`
 * photo. `warnings` are the fetcher's (an image it could not get); the card adds its own.
 */
export interface LeaderboardInput {
  kind: 'leaderboard';
  options: LeaderboardOptions;
  avatars: readonly (Buffer | undefined)[];
  guildIcon?: Buffer | undefined;
  /** The field a bad `guildIcon` is warned about: `guild.iconUrl` (default), or `guild.id` for the server's own icon from Discord. */
  guildIconField?: 'guild.iconUrl' | 'guild.id' | undefined;
  background?: Buffer | undefined;
  warnings?: readonly string[] | undefined;
}

/** The dark ground of every box (rows, podium places, the header when its text needs one). */
const BOX_GROUND: Rgb = { r: 12, g: 14, b: 20 };
/** A row box's least opacity; more where the pixels behind its text need it (a light photo). */
const BOX_ALPHA = 0.55;
/** Aim above each contrast target, as the cards' legibility step does. */
const CONTRAST_MARGIN = 0.25;
/** Texts drawn in tabular figures, so the columns' digits line up from row to row. */
const TABULAR_ROLES = new Set(['level', 'score']);
/**
 * Texts a board repeats from render to render, drawn from cached layers (tabular-figures.ts
 * drawFromLayer). Not the column headings: letter-spaced and right-aligned, they sit between
 * device pixels, and a layer snapped to whole ones moved their last letter.
 */
const LAYERED_ROLES = new Set(['rank', 'title', 'medal']);

/** Numbers as the profile card writes them: truncated, never rounded up. */
const boardNumber = (value: number) => compactNumber(value, { round: 'down' });

type Placed = { row: LeaderboardRow; rowIndex: number | undefined; highlighted: boolean; field: string };
type ListRow = Placed & { top: number };
type PodiumPlace = Placed & { rank: 1 | 2 | 3; box: Rect; avatarRadius: number; centerX: number; centerY: number };

interface BoardPlan {
  bands: BoardBands;
  podium: PodiumPlace[];
  list: ListRow[];
  separatorTop: number | undefined;
  height: number;
}

/**
 * The server header's name, or undefined when there is no header: a `guild` that came with an id
 * alone and whose server could not be looked up has no name to draw (the renderer warns).
 */
function guildName(options: LeaderboardOptions): string | undefined {
  return options.guild === undefined ? undefined : visibleText(options.guild.name);
}

/** Where every row goes: the podium's three places, the list, the highlighted member's extra row. */
function planBoard(options: LeaderboardOptions): BoardPlan {
  const bands: BoardBands = { guild: guildName(options) !== undefined, podium: options.podium === true };
  const placement = highlightPlacement(options);
  const extra = placement !== undefined && 'extra' in placement ? placement.extra : undefined;
  const highlightedIndex = placement !== undefined && 'index' in placement ? placement.index : undefined;
  const onPodium = (row: LeaderboardRow) => bands.podium === true && (PODIUM_RANKS as readonly number[]).includes(row.rank);
  const podium: PodiumPlace[] = [];
  if (bands.podium) {
    const top = podiumTop(bands);
    const totalWidth = BOARD_PODIUM.placeWidth * 3 + BOARD_PODIUM.placeGap * 2;
    const left = (BOARD.width - totalWidth) / 2;
    for (const [slot, rank] of PODIUM_RANKS.entries()) {
      const rowIndex = options.rows.findIndex((row) => row.rank === rank);
      const row = options.rows[rowIndex];
      // The schema refuses a podium without ranks 1 to 3.
      if (row === undefined) throw new Error(`a podium board without rank ${rank} passed validation`);
      const boxTop = top + (rank === 1 ? 0 : BOARD_PODIUM.raise);
      const avatarRadius = rank === 1 ? BOARD_PODIUM.avatarRadius.first : BOARD_PODIUM.avatarRadius.other;
      const x = left + slot * (BOARD_PODIUM.placeWidth + BOARD_PODIUM.placeGap);
      podium.push({
        row,
        rowIndex,
        rank,
        highlighted: highlightedIndex === rowIndex,
        field: `rows.${rowIndex}`,
        box: { x, y: boxTop, width: BOARD_PODIUM.placeWidth, height: top + BOARD_PODIUM.height - boxTop },
        avatarRadius,
        centerX: x + BOARD_PODIUM.placeWidth / 2,
        centerY: boxTop + BOARD_PODIUM.avatarTop + avatarRadius,
      });
    }
  }
  const step = BOARD_ROWS.height + BOARD_ROWS.gap;
  const first = listTop(bands);
  const list: ListRow[] = options.rows
    .map((row, rowIndex) => ({ row, rowIndex }))
    .filter(({ row }) => !onPodium(row))
    .map(({ row, rowIndex }, position) => ({ row, rowIndex, top: first + position * step, highlighted: highlightedIndex === rowIndex, field: `rows.${rowIndex}` }));
  let separatorTop: number | undefined;
  const listed = list.length;
  if (extra) {
    separatorTop = first + listed * step - (listed > 0 ? BOARD_ROWS.gap : 0);
    list.push({ row: extra, rowIndex: undefined, top: separatorTop + BOARD_SEPARATOR.height, highlighted: true, field: 'highlight' });
  }
  return { bands, podium, list, separatorTop, height: leaderboardHeight(listed, extra !== undefined, bands) };
}

/** Decoded images of a board; an avatar or icon that fails is drawn without (a warning), a background that fails refuses the board. */
interface DecodedBoard {
  avatars: Map<string, Canvas>;
  guildIcon: Canvas | undefined;
  background: Canvas | undefined;
  warnings: string[];
}

/**
 * Every image checked and charged to the card's pixel budget in order (background, icon, avatars),
 * then decoded in parallel. Avatars are decoded at the size they are drawn (podium places larger),
 * in device pixels (twice the size at `scale: 2`).
 */
async function decodeBoard(input: LeaderboardInput, plan: BoardPlan, scale: number): Promise<DecodedBoard> {
  const budget = new CardPixelBudget();
  const warnings: string[] = [];
  const refused = (error: unknown) => {
    if (!(error instanceof CardImageError)) throw error;
    warnings.push(error.message);
    return undefined;
  };
  // The caller chose the background: a bad one refuses the board, as `customBackground` refuses a card.
  const background = input.background === undefined ? undefined : await checkPhotoBackground(input.background, { field: 'background', budget, softness: 'soft', width: BOARD.width * scale, height: plan.height * scale });
  const decodeSoft = async (bytes: Buffer | undefined, field: string, side: number): Promise<(() => Promise<Canvas | undefined>) | undefined> => {
    if (bytes === undefined) return undefined;
    try {
      const decode = await checkImageCached(bytes, { field, budget, side: side * scale });
      return () => decode().then((image) => image.source, refused);
    } catch (error) {
      return () => Promise.resolve(refused(error));
    }
  };
  // An icon without a header to stand in (no server name) is not decoded, nor charged to the budget.
  const icon = guildName(input.options) === undefined ? undefined : await decodeSoft(input.guildIcon, input.guildIconField ?? 'guild.iconUrl', BOARD_GUILD.iconRadius * 2);
  const avatarOf = (placed: Placed) => input.avatars[placed.rowIndex ?? input.options.rows.length];
  const pending: [string, (() => Promise<Canvas | undefined>) | undefined][] = [];
  for (const place of plan.podium) pending.push([place.field, await decodeSoft(avatarOf(place), `${place.field}.avatar`, place.avatarRadius * 2)]);
  for (const row of plan.list) pending.push([row.field, await decodeSoft(avatarOf(row), `${row.field}.avatar`, BOARD_AVATAR.radius * 2)]);
  const [backgroundCanvas, iconCanvas, ...avatarCanvases] = await Promise.all([background?.(), icon?.(), ...pending.map(([, decode]) => decode?.())]);
  const avatars = new Map<string, Canvas>();
  for (const [index, [field]] of pending.entries()) {
    const canvas = avatarCanvases[index];
    if (canvas !== undefined) avatars.set(field, canvas);
  }
  return { avatars, guildIcon: iconCanvas, background: backgroundCanvas, warnings };
}

const LABEL_STYLE: TextStyle = { size: BOARD_STATS.labelSize, weight: 700, color: GROUND_TEXT.dark.label, letterSpacing: 1 };
const VALUE_STYLE: TextStyle = { size: BOARD_STATS.valueSize, weight: 800, color: GROUND_TEXT.dark.value };
const NAME_STYLE: TextStyle = { size: BOARD_NAME.size, weight: 800, color: '#ffffff' };

/** A text and the box it stands on (its ground), for the legibility measure. */
type BoxedText = PlacedText & { box: string };

/** The level and score columns of the list: each one's right edge, or undefined when no list row has that number. */
function listColumns(context: CanvasRenderingContext2D, list: readonly ListRow[], scoreLabel: string) {
  const widest = (values: (number | undefined)[], heading: string) => {
    const drawn = values.filter((value) => value !== undefined);
    if (drawn.length === 0) return undefined;
    return Math.max(measureText(context, heading, LABEL_STYLE), ...drawn.map((value) => tabularWidth(context, boardNumber(value), VALUE_STYLE)));
  };
  const scoreWidth = widest(list.map((placed) => placed.row.score), scoreLabel);
  const levelWidth = widest(list.map((placed) => placed.row.level), 'LVL');
  const scoreRight = scoreWidth === undefined ? undefined : BOARD_STATS.right;
  const levelRight = levelWidth === undefined ? undefined : BOARD_STATS.right - (scoreWidth === undefined ? 0 : scoreWidth + BOARD_STATS.columnGap);
  const statsLeft = BOARD_STATS.right - (scoreWidth ?? 0) - (levelWidth ?? 0) - (scoreWidth !== undefined && levelWidth !== undefined ? BOARD_STATS.columnGap : 0);
  return { scoreRight, levelRight, nameRoom: statsLeft - BOARD_NAME.gapToStats - BOARD_NAME.left };
}

/** The list's texts: the column headings once, then per row the rank, the name and the numbers in their columns. */
function listTexts(context: CanvasRenderingContext2D, options: LeaderboardOptions, plan: BoardPlan, scoreLabel: string): BoxedText[] {
  if (plan.list.length === 0) return [];
  const texts: BoxedText[] = [];
  const columns = listColumns(context, plan.list, scoreLabel);
  const headingBaseline = listTop(plan.bands) - BOARD_STATS.headingGap;
  const heading = (role: string, text: string, right: number | undefined) => {
    if (right === undefined) return;
    const width = measureText(context, text, LABEL_STYLE);
    // Under a podium the headings stand between it and the list, on a box of their own when a photo needs one.
    texts.push({ role, text, x: right - width, baseline: headingBaseline, width, style: LABEL_STYLE, minContrast: SMALL_TEXT_CONTRAST, box: plan.bands.podium ? 'headings' : 'header' });
  };
  heading('level heading', 'LVL', columns.levelRight);
  heading('score heading', scoreLabel, columns.scoreRight);
  for (const placed of plan.list) {
    const { row, top } = placed;
    const box = `row:${placed.field}`;
    const middle = top + BOARD_ROWS.height / 2;
    const podium = options.autoColorRank ? PODIUM_COLORS.dark[row.rank] : undefined;
    const rankFit = fitText(context, `#${boardNumber(row.rank)}`, { size: BOARD_RANK.size, weight: 800, color: podium ?? GROUND_TEXT.dark.value }, BOARD_RANK.width, BOARD_RANK.minSize);
    texts.push({ role: 'rank', text: rankFit.text, x: BOARD_RANK.left, baseline: middle + rankFit.style.size * 0.36, width: rankFit.width, style: rankFit.style, minContrast: LARGE_TEXT_CONTRAST, box });
    const statsBaseline = middle + BOARD_STATS.valueSize * 0.36;
    for (const [role, value, right] of [['level', row.level, columns.levelRight], ['score', row.score, columns.scoreRight]] as const) {
      if (value === undefined || right === undefined) continue;
      const text = boardNumber(value);
      const width = tabularWidth(context, text, VALUE_STYLE);
      texts.push({ role, text, x: right - width, baseline: statsBaseline, width, style: VALUE_STYLE, minContrast: LARGE_TEXT_CONTRAST, box });
    }
    // Never smaller than the type scale's name size: a long name is cut with "…" instead.
    const name = fitText(context, visibleText(row.name) ?? '', NAME_STYLE, columns.nameRoom, BOARD_NAME.size);
    texts.push({ role: 'name', text: name.text, x: BOARD_NAME.left, baseline: middle + BOARD_NAME.size * 0.36, width: name.width, style: name.style, minContrast: LARGE_TEXT_CONTRAST, box });
  }
  return texts;
}

/**
 * A podium place's texts: the name (cut, never shrunk under the name size) and one line of numbers,
 * centred under the avatar. When `LVL n  <score> <label>` does not fit, the numbers shrink to the
 * type scale's small size; then the level is left out (the score is what the board ranks by; the
 * alt text still says the level), then the score label is cut with "…".
 */
function podiumTexts(context: CanvasRenderingContext2D, place: PodiumPlace, scoreLabel: string): BoxedText[] {
  const box = `podium:${place.rank}`;
  const room = place.box.width - 24;
  const bottom = place.box.y + place.box.height;
  const name = fitText(context, visibleText(place.row.name) ?? '', { ...NAME_STYLE, size: BOARD_PODIUM.nameSize }, room, BOARD_PODIUM.nameSize);
  const texts: BoxedText[] = [
    { role: 'name', text: name.text, x: place.centerX - name.width / 2, baseline: bottom - BOARD_PODIUM.nameFromBottom, width: name.width, style: name.style, minContrast: LARGE_TEXT_CONTRAST, box },
  ];
  const { level, score } = place.row;
  const parts = (valueSize: number, label: string, withLevel: boolean) => {
    const value = { ...VALUE_STYLE, size: valueSize };
    const list: { role: string; text: string; style: TextStyle; gap: number; tabular: boolean; minContrast: number }[] = [];
    if (withLevel && level !== undefined) list.push({ role: 'level label', text: 'LVL', style: LABEL_STYLE, gap: 8, tabular: false, minContrast: SMALL_TEXT_CONTRAST }, { role: 'level', text: boardNumber(level), style: value, gap: 22, tabular: true, minContrast: LARGE_TEXT_CONTRAST });
    if (score !== undefined) list.push({ role: 'score', text: boardNumber(score), style: value, gap: 8, tabular: true, minContrast: LARGE_TEXT_CONTRAST }, { role: 'score label', text: label, style: LABEL_STYLE, gap: 0, tabular: false, minContrast: SMALL_TEXT_CONTRAST });
    const last = list.at(-1);
    if (last) last.gap = 0;
    const widths = list.map((part) => (part.tabular ? tabularWidth(context, part.text, part.style) : measureText(context, part.text, part.style)));
    return { list, widths, total: widths.reduce((sum, width, index) => sum + width + (list[index]?.gap ?? 0), 0) };
  };
  // The score is what the board is sorted by: the level gives way first, then the score label is cut.
  let line = parts(BOARD_PODIUM.statsValueSize, scoreLabel, true);
  if (line.total > room) line = parts(BOARD_STATS.labelSize, scoreLabel, true);
  if (line.total > room) line = parts(BOARD_PODIUM.statsValueSize, scoreLabel, false);
  if (line.total > room && score !== undefined) {
    const labelWidth = line.widths.at(-1) ?? 0;
    const cut = fitText(context, scoreLabel, LABEL_STYLE, Math.max(0, labelWidth - (line.total - room)), LABEL_STYLE.size);
    line = parts(BOARD_PODIUM.statsValueSize, cut.text, false);
  }
  let x = place.centerX - line.total / 2;
  const baseline = bottom - BOARD_PODIUM.statsFromBottom;
  for (const [index, part] of line.list.entries()) {
    const width = line.widths[index] ?? 0;
    texts.push({ role: part.role, text: part.text, x, baseline, width, style: part.style, minContrast: part.minContrast, box });
    x += width + part.gap;
  }
  return texts;
}

/** The title band, or the server header: icon, server name, then the title and the member count. */
function headerTexts(context: CanvasRenderingContext2D, options: LeaderboardOptions, title: string): BoxedText[] {
  const right = BOARD.width - BOARD.padding - BOARD_ROWS.inset;
  const serverName = guildName(options);
  if (options.guild === undefined || serverName === undefined) {
    const fit = fitText(context, title, { size: BOARD_TITLE.size, weight: 800, color: '#ffffff' }, right - BOARD_ROWS.inset - 4, BOARD_TITLE.minSize);
    return [{ role: 'title', text: fit.text, x: BOARD_ROWS.inset + 4, baseline: BOARD_TITLE.baseline, width: fit.width, style: fit.style, minContrast: LARGE_TEXT_CONTRAST, box: 'header' }];
  }
  const room = right - BOARD_GUILD.textLeft;
  const name = fitText(context, serverName, { size: BOARD_GUILD.nameSize, weight: 800, color: '#ffffff' }, room, BOARD_GUILD.nameSize);
  const members = options.guild.memberCount === undefined ? '' : ` · ${boardNumber(options.guild.memberCount)} ${options.guild.memberCount === 1 ? 'member' : 'members'}`;
  const subline = fitText(context, `${title}${members}`, { size: BOARD_GUILD.sublineSize, weight: 600, color: GROUND_TEXT.dark.xp }, room, BOARD_STATS.labelSize);
  return [
    { role: 'guild name', text: name.text, x: BOARD_GUILD.textLeft, baseline: BOARD_GUILD.nameBaseline, width: name.width, style: name.style, minContrast: LARGE_TEXT_CONTRAST, box: 'header' },
    { role: 'title', text: subline.text, x: BOARD_GUILD.textLeft, baseline: BOARD_GUILD.sublineBaseline, width: subline.width, style: subline.style, minContrast: SMALL_TEXT_CONTRAST, box: 'header' },
  ];
}

/** The dimmest text on a row (the labels) must keep small-text contrast on the highlighted row, with the legibility step's margin. */
const HIGHLIGHT_CONTRAST = SMALL_TEXT_CONTRAST + CONTRAST_MARGIN;

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

/**
 * A box: the dark ground at `alpha` (measured), or, highlighted, opaque accent (nothing
 * beneath can lighten it) with a glow around it, a bright outline and a bar on its left edge, so the
 * asking member finds their row at a glance even at 400 px.
 */
function paintBox(context: CanvasRenderingContext2D, rect: Rect, radius: number, highlighted: boolean, accent: string, alpha: number): void {
  context.save();
  roundedRectPath(context, rect.x, rect.y, rect.width, rect.height, radius);
  if (highlighted) {
    const color = parseHexColor(accent);
    const fill = highlightFill(accent);
    // A halo (a wide, faint stroke) rather than a blurred shadow: cairo blurring a box this size cost more than all of a row's text.
    context.lineWidth = BOARD_HIGHLIGHT.glow;
    context.strokeStyle = rgba(lighten(color, 0.2), 0.22);
    context.stroke();
    context.fillStyle = withStops(context.createLinearGradient(rect.x, 0, rect.x + rect.width, 0), [[0, rgba(fill)], [1, rgba(darken(fill, 0.3))]]);
    context.fill();
    context.lineWidth = BOARD_HIGHLIGHT.outline;
    context.strokeStyle = rgba(lighten(color, 0.35));
    context.stroke();
    context.clip();
    context.fillStyle = rgba(lighten(color, 0.35));
    context.fillRect(rect.x, rect.y, BOARD_HIGHLIGHT.barWidth, rect.height);
  } else {
    context.fillStyle = rgba(BOX_GROUND, alpha);
    context.fill();
    context.lineWidth = 1;
    context.strokeStyle = 'rgba(255, 255, 255, 0.08)';
    context.stroke();
  }
  context.restore();
}

/** Room around a box on its layer, in 1x pixels: the highlight's halo reaches half its width beyond the box. */
const BOX_LAYER_PAD = BOARD_HIGHLIGHT.glow / 2 + 2;

/**
 * Draws a box from a cached layer when it sits on whole device pixels (rows and podium places do):
 * a board's eleven rows are one or two designs, and rasterizing each rounded box again cost ~0.4 ms
 * a row. A box between device pixels (the headings' box) is painted in place.
 */
function drawBox(context: CanvasRenderingContext2D, rect: Rect, radius: number, highlighted: boolean, accent: string, alpha: number): void {
  const { a: scale, e: offsetX, f: offsetY } = context.getTransform();
  const left = (rect.x - BOX_LAYER_PAD) * scale + offsetX;
  const top = (rect.y - BOX_LAYER_PAD) * scale + offsetY;
  if (!Number.isInteger(left) || !Number.isInteger(top)) return paintBox(context, rect, radius, highlighted, accent, alpha);
  const key = `board-box:${rect.width}x${rect.height}:${radius}:${highlighted ? `highlight:${accent}` : alpha}:${scale}`;
  let layer = staticLayerCache.get(key)?.canvas;
  if (!layer) {
    layer = createCanvas(Math.ceil((rect.width + BOX_LAYER_PAD * 2) * scale), Math.ceil((rect.height + BOX_LAYER_PAD * 2) * scale));
    const layerContext = layer.getContext('2d');
    layerContext.scale(scale, scale);
    paintBox(layerContext, { ...rect, x: BOX_LAYER_PAD, y: BOX_LAYER_PAD }, radius, highlighted, accent, alpha);
    staticLayerCache.set(key, { canvas: layer });
  }
  context.save();
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.drawImage(layer, left, top);
  context.restore();
}

/** A number per canvas, so cached layers made from a canvas (an avatar, a background) can be keyed by it. */
const canvasIds = new WeakMap<Canvas, number>();
let nextCanvasId = 0;
function canvasId(canvas: Canvas): number {
  let id = canvasIds.get(canvas);
  if (id === undefined) {
    id = nextCanvasId++;
    canvasIds.set(canvas, id);
  }
  return id;
}

/**
 * A round avatar on its own layer at device pixels, cached: the decoded avatars are cached canvases
 * (a server's top ten come back board after board) and the default avatar depends only on the
 * palette, so each is cut to its circle once instead of clipped on every board (11 clips a board).
 */
function roundAvatarLayer(avatar: Canvas | undefined, radius: number, scale: number, palette: ReturnType<typeof resolvePalette>): Canvas {
  const source = avatar ? `image:${canvasId(avatar)}` : `default:${rgba(palette.primary)}:${rgba(palette.secondary)}`;
  const key = `board-avatar:${source}:${radius}:${scale}`;
  const cached = staticLayerCache.get(key);
  if (cached) return cached.canvas;
  const canvas = createCanvas(Math.ceil(radius * 2 * scale), Math.ceil(radius * 2 * scale));
  const layer = canvas.getContext('2d');
  layer.scale(scale, scale);
  layer.imageSmoothingEnabled = true;
  layer.patternQuality = 'good';
  circlePath(layer, radius, radius, radius);
  layer.clip();
  if (avatar) {
    const crop = coverCrop(avatar.width, avatar.height, 1, 1);
    layer.drawImage(avatar, crop.x, crop.y, crop.width, crop.height, 0, 0, radius * 2, radius * 2);
  } else {
    drawDefaultAvatar(layer, palette, radius, radius, radius);
  }
  staticLayerCache.set(key, { canvas });
  return canvas;
}

/** Draws a round avatar from its cached layer, on whole device pixels (every avatar's box is). */
function drawAvatar(context: CanvasRenderingContext2D, avatar: Canvas | undefined, centerX: number, centerY: number, radius: number, palette: ReturnType<typeof resolvePalette>): void {
  const { a: scale, e: offsetX, f: offsetY } = context.getTransform();
  const layer = roundAvatarLayer(avatar, radius, scale, palette);
  context.save();
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.drawImage(layer, Math.round((centerX - radius) * scale + offsetX), Math.round((centerY - radius) * scale + offsetY));
  context.restore();
}

/** A podium place: its box with a stripe of its medal colour on top, the avatar in a ring of it, and the medal with the rank. */
function drawPodiumPlace(context: CanvasRenderingContext2D, place: PodiumPlace, avatar: Canvas | undefined, accent: string, alpha: number, palette: ReturnType<typeof resolvePalette>): BoxedText {
  const medal = PODIUM_COLORS.dark[place.rank] ?? '#ffffff';
  drawBox(context, place.box, BOARD_ROWS.radius, place.highlighted, accent, alpha);
  context.save();
  roundedRectPath(context, place.box.x, place.box.y, place.box.width, place.box.height, BOARD_ROWS.radius);
  context.clip();
  context.fillStyle = medal;
  context.fillRect(place.box.x, place.box.y, place.box.width, BOARD_PODIUM.stripe);
  context.restore();
  circlePath(context, place.centerX, place.centerY, place.avatarRadius + BOARD_PODIUM.ringWidth);
  context.fillStyle = medal;
  context.fill();
  drawAvatar(context, avatar, place.centerX, place.centerY, place.avatarRadius, palette);
  const offset = place.avatarRadius * Math.SQRT1_2;
  const medalX = place.centerX + offset;
  const medalY = place.centerY + offset;
  circlePath(context, medalX, medalY, BOARD_PODIUM.medalRadius + 3);
  context.fillStyle = rgba(BOX_GROUND);
  context.fill();
  circlePath(context, medalX, medalY, BOARD_PODIUM.medalRadius);
  context.fillStyle = medal;
  context.fill();
  // Dark digits on the medal: every podium colour is light enough for them (gold 11:1, bronze 6:1).
  const style: TextStyle = { size: BOARD_PODIUM.medalSize, weight: 800, color: '#14161c' };
  const text = String(place.rank);
  const width = measureText(context, text, style);
  return { role: 'medal', text, x: medalX - width / 2, baseline: medalY + style.size * 0.36, width, style, minContrast: LARGE_TEXT_CONTRAST, box: `medal:${place.rank}` };
}

/** Discord's look for a server without an icon: its initials on a plain disc. */
function guildInitials(name: string): string {
  const words = name.trim().split(/\s+/u).filter((word) => word.length > 0);
  return words
    .slice(0, 3)
    .map((word) => graphemesOf(word)[0] ?? '')
    .join('');
}

function drawGuildIcon(context: CanvasRenderingContext2D, icon: Canvas | undefined, name: string, accent: string): BoxedText | undefined {
  const { iconCenterX: x, iconCenterY: y, iconRadius: radius } = BOARD_GUILD;
  if (icon) {
    drawAvatar(context, icon, x, y, radius, resolvePalette({ accentColor: accent }, false));
    return undefined;
  }
  circlePath(context, x, y, radius);
  context.fillStyle = rgba(highlightFill(accent));
  context.fill();
  const initials = guildInitials(name);
  const fit = fitText(context, initials, { size: 32, weight: 800, color: '#ffffff' }, radius * 1.6, BOARD_STATS.labelSize);
  return { role: 'guild initials', text: fit.text, x: x - fit.width / 2, baseline: y + fit.style.size * 0.36, width: fit.width, style: fit.style, minContrast: LARGE_TEXT_CONTRAST, box: 'icon' };
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

/** Between the header's box and the first row: less than the rows' gap, so the column headings' descenders stay on the box. */
const HEADER_BOX_GAP = 5;

/** The header's box, when its text needs one: the band above the rows, inset like them. */
function headerRect(plan: BoardPlan): Rect {
  const bottom = (plan.bands.podium ? podiumTop(plan.bands) : listTop(plan.bands)) - HEADER_BOX_GAP;
  return { x: BOARD_ROWS.inset, y: BOARD_ROWS.inset - 4, width: BOARD.width - BOARD_ROWS.inset * 2, height: bottom - BOARD_ROWS.inset + 4 };
}

/** The black veil over the whole background, under every box. */
const BOARD_VEIL = 'rgba(0, 0, 0, 0.35)';

/**
 * The background under the veil, cut to the card's rounded outline, as one 1x layer per background
 * canvas and height (the static layer cache, so its 4 MiB count there): a board then copies it in
 * one drawImage instead of drawing the background through a clip and veiling 1 Mpx of it again
 * (2-3 ms of a ten-row board's CPU). Copied onto the board it gives the same pixels.
 */
function boardGround(background: Canvas, height: number): Canvas {
  const key = `board-ground:${canvasId(background)}:${height}`;
  const cached = staticLayerCache.get(key);
  if (cached) return cached.canvas;
  const canvas = createCanvas(BOARD.width, height);
  const layer = canvas.getContext('2d');
  layer.imageSmoothingEnabled = true;
  layer.patternQuality = 'good';
  roundedRectPath(layer, 0, 0, BOARD.width, height, BOARD.radius);
  layer.clip();
  layer.drawImage(background, 0, 0, BOARD.width, height);
  layer.fillStyle = BOARD_VEIL;
  layer.fillRect(0, 0, BOARD.width, height);
  staticLayerCache.set(key, { canvas });
  return canvas;
}

/**
 * The veiled background under everything, cut to the card's outline: at 1x copied from its cached
 * layer over every pixel (corners included, so a reused canvas starts clean); at `scale: 2` (a
 * 16 MiB layer, most of the static layer cache) painted in place on the fresh canvas.
 */
function drawBoardGround(context: CanvasRenderingContext2D, background: Canvas, height: number, scale: number): void {
  context.save();
  if (scale === 1) {
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.globalCompositeOperation = 'copy';
    context.drawImage(boardGround(background, height), 0, 0);
  } else {
    roundedRectPath(context, 0, 0, BOARD.width, height, BOARD.radius);
    context.clip();
    context.drawImage(background, 0, 0, BOARD.width, height);
    context.fillStyle = BOARD_VEIL;
    context.fillRect(0, 0, BOARD.width, height);
  }
  context.restore();
}

/** Readings kept per background canvas, at most: a long-lived background meets ever new names. */
const MAX_READINGS_PER_BACKGROUND = 1024;

/**
 * The lightest pixel behind each text's place, per background canvas. The pixels behind a text are
 * the background's under the fixed veil, so they are known once a board has been measured on that
 * background: a server's board comes back with the same title and accent (the same generated art,
 * a cached canvas) or the same photo, with its ranks, numbers, headings and most names where they
 * were. Reading them again (some 45 getImageData calls a ten-row board) cost 3-4 ms of its CPU.
 */
const readingsByBackground = new WeakMap<Canvas, Map<string, Rgb>>();

function pixelBehind(context: CanvasRenderingContext2D, background: Canvas, bounds: Rect, scale: number): Rgb {
  const readings = readingsByBackground.get(background) ?? new Map<string, Rgb>();
  readingsByBackground.set(background, readings);
  const key = `${scale}:${bounds.x}:${bounds.y}:${bounds.width}:${bounds.height}`;
  const known = readings.get(key);
  if (known) return known;
  const behind = worstPixel(context, bounds, scale, true);
  if (readings.size >= MAX_READINGS_PER_BACKGROUND) readings.clear();
  readings.set(key, behind);
  return behind;
}

/**
 * How opaque each box must be for its texts to reach their contrast (with the cards' margin),
 * measured on the pixels behind them (background and veil) as the cards' legibility step does: at
 * least BOX_ALPHA for rows and podium places; the header and the column headings get a box only
 * when their texts need one.
 */
function measuredAlphas(context: CanvasRenderingContext2D, background: Canvas, texts: readonly BoxedText[], scale: number): Map<string, number> {
  const alphas = new Map<string, number>();
  for (const text of texts) {
    const behind = pixelBehind(context, background, textBounds(text), scale);
    const needed = alphaNeeded(behind, textColor(text), BOX_GROUND, text.minContrast + CONTRAST_MARGIN);
    alphas.set(text.box, Math.max(alphas.get(text.box) ?? 0, needed));
  }
  return alphas;
}

/** The last 1x board's canvas, drawn on again by the next board of that size. */
let reusableBoard: Canvas | undefined;

/**
 * The canvas a board is drawn on. A fresh 900x1144 canvas cost ~2.5 ms of CPU before the first
 * pixel was drawn (the kernel zeroing its 4 MiB page by page as the background is copied in), as
 * much as all of the board's text; the last 1x board's canvas is drawn on again instead. That is
 * safe because a board is drawn and encoded synchronously (no other board can draw in between) and
 * its background is copied over every pixel (`copy`, corners included). At `scale: 2` (16 MiB) a
 * fresh canvas is taken, so a thread keeps at most 4 MiB for this.
 */
function boardCanvas(width: number, height: number): Canvas {
  if (width !== BOARD.width) return createCanvas(width, height);
  if (reusableBoard?.width !== width || reusableBoard.height !== height) reusableBoard = createCanvas(width, height);
  return reusableBoard;
}

/**
 * Draws a leaderboard card (docs/card-design.md, "Leaderboard card"): a pure function from the
 * board and its image bytes to PNG bytes. The background is generated from the accent color (a
 * board belongs to a server, not to one profile) unless a `background` photo is given; every text
 * stands on a dark box, darkened further where the pixels behind it need it to reach its contrast.
 */
export async function renderLeaderboardCard(input: LeaderboardInput): Promise<RenderedCard> {
  prepareCardFonts();
  const started = performance.now();
  const { options } = input;
  const accent = options.accentColor ?? DEFAULT_CARD_ACCENT;
  const plan = planBoard(options);
  const scale = options.scale ?? 1;
  const decoded = await decodeBoard(input, plan, scale);
  const title = visibleText(options.title) ?? DEFAULT_LEADERBOARD_TITLE;
  const scoreLabel = visibleText(options.scoreLabel) ?? DEFAULT_SCORE_LABEL;
  // The art and default avatars take their hues from the accent, seeded by the title.
  const palette = resolvePalette({ accentColor: accent }, false);
  const prepared = performance.now();

  // At `scale: 2` the same layout is drawn through a transform, as the cards are.
  const canvas = boardCanvas(BOARD.width * scale, plan.height * scale);
  const context = canvas.getContext('2d');
  context.setTransform(scale, 0, 0, scale, 0, 0);
  context.imageSmoothingEnabled = true;
  context.patternQuality = 'good';
  const background = decoded.background ?? generatedCardBackground(palette, title, BOARD.width * scale, plan.height * scale);
  drawBoardGround(context, background, plan.height, scale);

  const laidOut: BoxedText[] = [...headerTexts(context, options, title), ...plan.podium.flatMap((place) => podiumTexts(context, place, scoreLabel)), ...listTexts(context, options, plan, scoreLabel)];
  // Measured on the art too: its glows under the veil are light enough to take grey headings under 4.5:1 (a green accent).
  const alphas = measuredAlphas(context, background, laidOut, scale);
  const boxAlpha = (box: string) => Math.max(BOX_ALPHA, alphas.get(box) ?? 0);
  const headerAlpha = alphas.get('header') ?? 0;
  if (headerAlpha > 0) {
    const rect = headerRect(plan);
    drawBox(context, rect, BOARD_ROWS.radius, false, accent, Math.max(BOX_ALPHA, headerAlpha));
  }

  const headings = laidOut.filter((text) => text.box === 'headings');
  const headingsAlpha = alphas.get('headings') ?? 0;
  if (headingsAlpha > 0 && headings.length > 0) {
    const left = Math.min(...headings.map((text) => text.x)) - 14;
    const baseline = headings[0]?.baseline ?? 0;
    drawBox(context, { x: left, y: baseline - BOARD_STATS.labelSize - 4, width: BOARD_STATS.right + 14 - left, height: BOARD_STATS.labelSize + 14 }, 10, false, accent, Math.max(BOX_ALPHA, headingsAlpha));
  }

  const texts: BoxedText[] = [];
  const serverName = guildName(options);
  if (serverName === undefined) {
    roundedRectPath(context, BOARD_ROWS.inset + 4, BOARD_TITLE.ruleTop, BOARD_TITLE.ruleWidth, BOARD_TITLE.ruleHeight, BOARD_TITLE.ruleHeight / 2);
    context.fillStyle = rgba(lighten(parseHexColor(accent), 0.15));
    context.fill();
  } else {
    const initials = drawGuildIcon(context, decoded.guildIcon, serverName, accent);
    if (initials) texts.push(initials);
  }
  for (const place of plan.podium) texts.push(drawPodiumPlace(context, place, decoded.avatars.get(place.field), accent, boxAlpha(`podium:${place.rank}`), palette));
  for (const row of plan.list) {
    drawBox(context, { x: BOARD_ROWS.inset, y: row.top, width: BOARD.width - BOARD_ROWS.inset * 2, height: BOARD_ROWS.height }, BOARD_ROWS.radius, row.highlighted, accent, boxAlpha(`row:${row.field}`));
    drawAvatar(context, decoded.avatars.get(row.field), BOARD_AVATAR.centerX, row.top + BOARD_ROWS.height / 2, BOARD_AVATAR.radius, palette);
  }
  if (plan.separatorTop !== undefined) drawSeparator(context, plan.separatorTop);
  texts.push(...laidOut);
  // No text shadow, unlike the profile card: every run but the title stands on a dark box, and
  // blurring some 55 runs cost as much CPU as the rest of the board (101.7 against 57.2 ms per
  // ten-row board, process CPU time, scripts measured on this machine).
  for (const run of texts) {
    if (TABULAR_ROLES.has(run.role)) drawTabular(context, run.text, run.x, run.baseline, run.style);
    else if (LAYERED_ROLES.has(run.role)) drawFromLayer(context, run.text, run.x, run.baseline, run.style);
    else drawText(context, run.text, run.x, run.baseline, run.style);
  }
  const inset = BOARD.borderWidth / 2;
  context.save();
  roundedRectPath(context, 0, 0, BOARD.width, plan.height, BOARD.radius);
  context.clip();
  context.lineWidth = BOARD.borderWidth;
  context.strokeStyle = rgba(lighten(palette.primary, 0.15));
  roundedRectPath(context, inset, inset, BOARD.width - BOARD.borderWidth, plan.height - BOARD.borderWidth, BOARD.radius - inset);
  context.stroke();
  context.restore();
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
    texts: texts.map(({ box: _box, ...text }) => text),
  };
}
