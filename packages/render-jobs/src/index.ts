/** The contract between the gateway and the renderers: nothing else passes between them. */
export { CARD_FONT_FAMILIES, CARD_FONT_FAMILY_IDS, CARD_LAYOUTS, CARD_LIMITS, CARD_PANELS, CARD_SCALES, type CardScale, DEFAULT_CARD_PANEL, DISCORD_MAX_NAME_LENGTH, DEFAULT_CARD_ACCENT, DEFAULT_CARD_FONT_FAMILY, DEFAULT_CARD_LABELS, DEFAULT_BACKGROUND_BRIGHTNESS, DEFAULT_CARD_LAYOUT, DEFAULT_LEVELUP_HEADLINE, DEFAULT_WELCOME_HEADLINE, previousLevelOf, DEFAULT_DATE_LOCALE, PRESENCE_STATUSES, cardOptionsSchema, isSupportedDateLocale } from './card-options.ts';
export type { CardFontFamily, CardLabel, CardLayout, CardOptions, CardPanel, PresenceStatus, RankData } from './card-options.ts';
export { HEX_COLOR, hexColorField, integerColorToHex, parseHexColor, rgbToHex, type Rgb } from './hex-color.ts';
export { CARD_PIXEL_BUDGET, describePixelCount, detectImageFormat, IMAGE_SNIFF_LENGTH, imageSizeProblem, judgeImageFormat, MAX_ANIMATION_MS, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, MAX_JPEG_SCANS, MAX_SOURCE_FRAMES, type ImageFormat } from './image-rules.ts';
export { walkGifBlocks, type GifBlock } from './gif-blocks.ts';
export { cardAnimationEncoding, cardFormatSchema, refuseStillOnlyFormat, isLeaderboardJob, renderJobPayloadSchema, type CardAnimationEncoding, type LeaderboardJobPayload, type ProfileJobPayload, type RenderJobPayload } from './render-job-payload.ts';
export { ALT_TEXT_MAX_LENGTH, RENDER_FAILED, renderJobResultSchema, type RenderFailure, type RenderJobResult } from './render-job-result.ts';
export { DEFAULT_MEDIA_FORMAT, isMediaKey, MEDIA_FORMATS, mediaObjectName, parseMediaName, type MediaContentType, type MediaFormat } from './media-names.ts';
export { mediaKeyForImage, renderJobId } from './render-key.ts';
export { RENDER_ABANDONED_REASON, RENDER_JOB_NAME, RENDER_JOB_OPTIONS, RENDER_QUEUE_NAME, RENDER_QUEUE_PREFIX, RENDER_RETENTION, RenderAbandonedError, renderKeyJobsKey, readReplyFields, REPLY_STREAM, replyFields, replyStreamKey, type ReplyEntry } from './render-job-options.ts';
export { anyCasePattern } from './any-case-pattern.ts';
export { refuseFutureSnowflake, snowflakeCreatedAt, snowflakeSchema } from './snowflake.ts';
export { DEFAULT_LEADERBOARD_TITLE, DEFAULT_SCORE_LABEL, highlightPlacement, LEADERBOARD_LIMITS, leaderboardOptionsSchema, PODIUM_RANKS, type LeaderboardGuild, type LeaderboardOptions, type LeaderboardRow } from './leaderboard-options.ts';
export { ASSET_PATH_PATTERN, DISCORD_OBJECT_LIMITS, PALETTE_PATTERN, discordMemberSchema, discordRoleColorsSchema, discordUserSchema, HOLOGRAPHIC_ROLE_COLORS, NAMEPLATE_PALETTES, discordIdMismatches, type DiscordCollectibles, type DiscordDisplayNameStyles, type DiscordMemberObject, type DiscordNameplate, type DiscordPrimaryGuild, type DiscordRoleColorsObject, type DiscordUserObject } from './discord-objects.ts';
export { DISCORD_ATTACHMENT_URL_REFUSAL, discordAttachmentUrlProblems, isDiscordAttachmentUrl } from './discord-attachment-url.ts';
export { claimRenderQueueShards, clusterSlotOf, RENDER_QUEUE_SHARDS, RENDER_QUEUE_SHARDS_KEY, renderQueueShards, type RenderQueueShard, type RenderQueueShards } from './render-queue-shards.ts';
