import { z } from 'zod';
import { TEMPLATE_ID, type CardTemplate, type TemplateKind } from '../../accounts/account-model.ts';
import type { AccountStore } from '../../accounts/account-store.ts';
import { templateKindMismatchError, templateNotFoundError, validationError, type FieldProblem } from '../../http/api-error.ts';

export type TemplateLookup = Pick<AccountStore, 'getTemplate'>;

/** The `template` field of a card request. */
export const templateReferenceSchema = z
  .string()
  .regex(TEMPLATE_ID, { error: 'must be a template id (tpl_ and 12 lowercase letters or digits)' })
  .meta({
    description:
      "A saved design of this key's account (`POST /v1/templates`) of this endpoint's kind (`profile` for profile cards, links and batches, `leaderboard` for leaderboards; the other kind is `422 template_kind_mismatch`): its fields are the card's, and every other field given here adds to or overrides them.",
    examples: ['tpl_3k9x2m7q1c0z'],
  });

/**
 * A card request's fields with its template's underneath: the request's own fields win (a whole
 * field each: a `customBadges` given replaces the template's list). No `template` leaves the body
 * as it is. The result is validated as a whole afterwards by the caller, so a template and a field
 * that contradict each other (an animated template, a PNG format) are the usual 400. A template of
 * another kind than the request's card is refused: its fields are another endpoint's.
 */
export async function applyTemplate(
  store: TemplateLookup,
  accountId: string,
  kind: TemplateKind,
  fields: Record<string, unknown>,
  where: FieldProblem['in'],
  field = 'template',
): Promise<{ body: Record<string, unknown>; template?: CardTemplate }> {
  if (!Object.hasOwn(fields, 'template')) return { body: fields };
  const { template: reference, ...own } = fields;
  const parsed = templateReferenceSchema.safeParse(reference);
  if (!parsed.success) throw validationError([{ in: where, field, message: parsed.error.issues[0]?.message ?? 'is not a template id' }]);
  const template = await store.getTemplate(accountId, parsed.data);
  if (!template) throw templateNotFoundError(where, field);
  if (template.kind !== kind) throw templateKindMismatchError(where, field, template.kind, kind);
  return { body: { ...template.fields, ...own }, template };
}
