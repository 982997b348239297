import type { CardProfile } from '@utility-api/card';
import { UnknownUserError } from './discord-errors.ts';
import { isDiscordUserId } from './discord-user.ts';

/**
 * The profile used when no bot token is configured: nothing is fetched, so the username is a
 * placeholder, `User 1234` after the id's last four digits, and the card paints its default avatar
 * and generated background (both derived from the id).
 */
export function idOnlyProfile(userId: string): CardProfile {
  if (!isDiscordUserId(userId)) throw new UnknownUserError(userId);
  return { userId, username: `User ${userId.slice(-4)}` };
}
