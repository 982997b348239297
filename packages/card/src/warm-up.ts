import { CARD_FONT_FAMILIES } from '@utility-api/render-jobs';
import { createCanvas } from 'canvas';
import { renderCard } from './render-card.ts';
import { drawInFamily, measureText, type TextStyle } from './text/rich-text.ts';

/** The weights the steps draw text in: Pango opens one file per family and weight the first time it is asked for it. */
const WARM_WEIGHTS: readonly TextStyle['weight'][] = [400, 600, 700, 800];

/** Opens every `fontFamily` face the card draws with, so the first card in a family costs what any card does. */
function warmUpFamilies(): void {
  for (const { name } of Object.values(CARD_FONT_FAMILIES)) {
    const context = drawInFamily(createCanvas(1, 1).getContext('2d'), name);
    for (const weight of WARM_WEIGHTS) measureText(context, 'Ag Ωω Жж', { size: 24, weight, color: '#000000' });
  }
}

/**
 * The first card of a thread costs several times a normal one: Pango opens the font files,
 * fontconfig builds its lists, the emoji font's glyphs are cut out and the JIT has nothing
 * compiled yet. Drawing one throwaway card with every script at boot moves that cost out of the
 * first user's request, and so does measuring text in every `fontFamily`. Call it after
 * prepareCardFonts(), once per render thread.
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
  warmUpFamilies();
  return { ms: performance.now() - started };
}
