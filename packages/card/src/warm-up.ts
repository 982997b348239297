import { renderCard } from './render-card.ts';

/**
 * The first card of a thread costs several times a normal one: Pango opens the font files,
 * fontconfig builds its lists, the emoji font's glyphs are cut out and the JIT has nothing
 * compiled yet. Drawing one throwaway card with every script at boot moves that cost out of the
 * first user's request. Call it after prepareCardFonts(), once per render thread.
 */
export async function warmUpCardRenderer(): Promise<{ ms: number }> {
  const started = performance.now();
  await renderCard({
    profile: { userId: '175928847299117063', username: 'warm-up', badges: ['staff', 'verified_bot'], bot: true },
    options: {
      customUsername: 'Warm up 東京 한국어 مرحبا ✨',
      customTag: 'नमस्ते สวัสดี שלום 𝓯𝓪𝓷𝓬𝔂',
      customSubtitle: 'Ελληνικά Русский ★',
      presenceStatus: 'online',
      rankData: { currentXp: 1, requiredXp: 2, level: 1, rank: 1, barColor: '#7c5cff', levelColor: '#ffd166', autoColorRank: true },
    },
  });
  return { ms: performance.now() - started };
}
