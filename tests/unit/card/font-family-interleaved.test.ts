import test from 'ava';
import { createCanvas } from 'canvas';
import { PNG_ENCODING, renderCard } from '../../../packages/card/src/index.ts';
import type { CardInput } from '../../../packages/card/src/profile/card-profile.ts';
import { cardContext } from '../../../packages/card/src/render-card.ts';
import { buildScene } from '../../../packages/card/src/scene.ts';
import { layoutSteps } from '../../../packages/card/src/steps/render-steps.ts';

const RANK = { currentXp: 4800, requiredXp: 5000, level: 23, rank: 4, barColor: '#7c5cff', levelColor: '#ffd166', autoColorRank: true };

function card(fontFamily: 'literata' | 'press-start-2p' | 'jetbrains-mono', layout?: 'welcome'): CardInput {
  return {
    profile: { userId: '175928847299117063', username: 'ada.codes', displayName: 'Ada Lovelace' },
    options: { fontFamily, customSubtitle: 'Analytical Engine', rankData: RANK, ...(layout ? { layout, message: 'Glad you are here' } : {}) },
  };
}

/**
 * The cards' steps drawn in turns, one step of each card after the other, each card on its own
 * canvas: what two cards drawn at the same time in one thread would do (an animated card's layers
 * between a still card's steps). The family each card draws in must be its own scene's.
 */
async function drawnInTurns(inputs: readonly CardInput[]): Promise<Buffer[]> {
  const cards = await Promise.all(
    inputs.map(async (input) => {
      const scene = await buildScene(input);
      const canvas = createCanvas(scene.frame.width * scene.scale, scene.frame.height * scene.scale);
      return { scene, canvas, context: cardContext(canvas, scene, { clipToCard: false }), steps: layoutSteps(scene.layout) };
    }),
  );
  const turns = Math.max(...cards.map((drawn) => drawn.steps.steps.length));
  for (let turn = 0; turn < turns; turn += 1) {
    for (const { scene, context, steps } of cards) {
      const step = steps.steps[turn];
      if (!step) continue;
      context.save();
      step.draw(context, scene);
      context.restore();
    }
  }
  return cards.map(({ canvas }) => canvas.toBuffer('image/png', PNG_ENCODING));
}

test('cards of different families drawn in turns are, byte for byte, each card drawn alone', async (t) => {
  const inputs = [card('literata'), card('press-start-2p'), card('jetbrains-mono', 'welcome')];
  const alone = [];
  for (const input of inputs) alone.push((await renderCard(input)).png);
  // The families really draw differently: the same card in another family is another picture.
  t.false(alone[0]?.equals(alone[1] ?? Buffer.alloc(0)));
  const interleaved = await drawnInTurns(inputs);
  for (const [index, png] of interleaved.entries()) t.true(png.equals(alone[index] ?? Buffer.alloc(0)), `${inputs[index]?.options.fontFamily} card`);
});
