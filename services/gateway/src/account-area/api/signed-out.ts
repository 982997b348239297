import { z } from 'zod';

/** What both sign-outs answer: where the page goes next. */
export const signedOutSchema = z.object({
  signedOut: z.literal(true),
  sessions: z.number().int().optional().meta({ description: 'How many sessions ended (signing out everywhere).' }),
  location: z.string().meta({ description: 'Where the page goes next.' }),
});
export const clearedCookie = { 'Set-Cookie': "Clears this browser's session cookie." };
