// The card form, built from the OpenAPI document's description of a card operation (POST
// /v1/profile-image or /v1/leaderboard-image): one control per query parameter and body field
// (nested objects included), chosen by the field's JSON Schema. A field the API gains later gets a
// control without touching this page.

import { controlsFor, documentedDefault, textControl, typeOf } from './controls.js';
import { element } from './dom.js';
import { DRAWN_ONLY_IN_LAYOUT } from './snippets.js';

/** Where each known field goes; fields not listed here land in "More options", in document order. */
const GROUPS = [
  { title: 'Card', fields: ['layout', 'userId', 'headline', 'message'] },
  { title: 'Text', fields: ['customUsername', 'customTag', 'customSubtitle', 'customDate', 'localDateType', 'fontFamily', 'labels'] },
  { title: 'Colours', fields: ['usernameColor', 'tagColor', 'borderColor', 'removeBorder', 'disableProfileTheme'] },
  { title: 'Background', fields: ['customBackground', 'background', 'backgroundBrightness', 'moreBackgroundBlur', 'panel'] },
  { title: 'Avatar', fields: ['presenceStatus', 'squareAvatar', 'removeAvatarFrame'] },
  { title: 'Badges', fields: ['customBadges', 'badgesFrame', 'overwriteBadges', 'removeBadges'] },
  { title: 'Rank and XP', fields: ['rankData'] },
  { title: 'Board', fields: ['title', 'rows', 'highlight', 'scoreLabel', 'podium', 'guild'] },
  { title: 'Board colours', fields: ['autoColorRank', 'accentColor'] },
  { title: 'Output', fields: ['format', 'scale', 'animated'] },
];

/**
 * @typedef {{ type?: string | string[], enum?: unknown[], pattern?: string, minimum?: number, maximum?: number,
 *   maxLength?: number, maxItems?: number, items?: JsonSchema, properties?: Record<string, JsonSchema>,
 *   required?: string[], description?: string, examples?: unknown[] }} JsonSchema
 * @typedef {{ name: string, in: string, required?: boolean, description?: string, schema: JsonSchema, example?: unknown }} Parameter
 * @typedef {{ path: string, serverUrl: string, parameters: Parameter[], bodySchema: JsonSchema, example: Record<string, unknown> }} CardOperation
 * @typedef {{ path: string, wrapper: HTMLElement, read: () => unknown, write: (value: unknown) => void, focus: () => void }} Control
 * @typedef {{ in: string, field: string, message: string }} FieldProblem
 */

/**
 * A copy of `value` with every local `$ref` (`#/components/...`, `#/$defs/...`) replaced by what it
 * points at, so the form reads one plain tree whichever way the document shares its schemas.
 * @param {any} document
 * @param {any} value
 * @param {Set<string>} [resolving] references being expanded, so a recursive schema stops
 * @returns {any}
 */
function resolveRefs(document, value, resolving = new Set()) {
  if (Array.isArray(value)) return value.map((item) => resolveRefs(document, item, resolving));
  if (value === null || typeof value !== 'object') return value;
  const reference = value.$ref;
  if (typeof reference === 'string' && reference.startsWith('#/') && !resolving.has(reference)) {
    const target = reference
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce((node, part) => node?.[part], document);
    const { $ref: _ignored, ...siblings } = value;
    return resolveRefs(document, { ...target, ...siblings }, new Set([...resolving, reference]));
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveRefs(document, item, resolving)]));
}

/**
 * A POST operation as the OpenAPI document describes it: the profile-image one (the user id in the
 * query), the leaderboard one (no query), or any other by its operationId.
 * @param {any} document the parsed `/v1/openapi.json`
 * @param {string} [operationId]
 * @returns {CardOperation}
 */
export function findCardOperation(document, operationId = 'createProfileImage') {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const operation = item?.post;
    if (operation?.operationId !== operationId) continue;
    const media = operation.requestBody?.content?.['application/json'] ?? {};
    return {
      path,
      serverUrl: String(document.servers?.[0]?.url ?? window.location.origin).replace(/\/$/, ''),
      parameters: (operation.parameters ?? []).map((parameter) => resolveRefs(document, parameter)).filter((parameter) => parameter.in === 'query'),
      bodySchema: resolveRefs(document, media.schema ?? { type: 'object', properties: {} }),
      example: media.example ?? {},
    };
  }
  throw new Error(`The API document has no ${operationId} operation: this deployment does not offer it.`);
}

/** JSON with object keys sorted, so two values compare equal whatever order their keys came in. */
function canonicalJson(/** @type {unknown} */ value) {
  return JSON.stringify(value, (_key, inner) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner,
  );
}

/**
 * Builds the form for the operation into `form` (the page's form, or a part of it that is thrown
 * away, listeners and all, when the page switches to another operation).
 * @param {HTMLElement} form
 * @param {CardOperation} operation
 */
export function buildCardForm(form, operation) {
  /** @type {Control[]} every control, nested ones included */
  const all = [];
  /** @type {Control[]} query parameters */
  const query = [];
  /** @type {Control[]} top-level body fields */
  const body = [];
  /** @type {Map<string, HTMLElement>} top-level name -> wrapper, for grouping */
  const wrappers = new Map();

  for (const parameter of operation.parameters) {
    const schema = { ...parameter.schema, description: parameter.description ?? '' };
    const control = textControl(parameter.name, schema, parameter.example === undefined ? undefined : String(parameter.example));
    if (typeOf(parameter.schema) === 'string' && /\\d/.test(parameter.schema.pattern ?? '')) control.wrapper.querySelector('input')?.setAttribute('inputmode', 'numeric');
    query.push(control);
    all.push(control);
    wrappers.set(parameter.name, control.wrapper);
  }
  for (const [name, schema] of Object.entries(operation.bodySchema.properties ?? {})) {
    const controls = controlsFor(name, schema);
    const [top] = controls;
    if (!top) continue;
    body.push(top);
    all.push(...controls);
    wrappers.set(name, top.wrapper);
  }

  const sections = GROUPS.map((group) => ({ title: group.title, names: group.fields.filter((name) => wrappers.has(name)) }));
  sections.push({ title: 'More options', names: [...wrappers.keys()].filter((name) => !GROUPS.some((group) => group.fields.includes(name))) });
  for (const section of sections) {
    if (section.names.length === 0) continue;
    const fieldset = element('fieldset', { class: 'group' }, [element('legend', {}, [section.title])]);
    for (const name of section.names) {
      fieldset.append(/** @type {HTMLElement} */ (wrappers.get(name)));
    }
    form.append(fieldset);
  }

  const defaults = () => {
    for (const control of query) {
      const parameter = operation.parameters.find((candidate) => candidate.name === control.path);
      control.write(parameter?.example);
    }
    for (const control of body) control.write(operation.example[control.path]);
  };
  defaults();

  const layoutControl = body.find((control) => control.path === 'layout');
  /** Greys out what the chosen layout does not draw. */
  const markLayout = () => {
    const layout = String(layoutControl?.read() ?? documentedDefault(operation.bodySchema.properties?.layout?.description) ?? 'profile');
    for (const [name, onlyIn] of Object.entries(DRAWN_ONLY_IN_LAYOUT)) {
      const wrapper = wrappers.get(name);
      if (!wrapper) continue;
      const drawn = onlyIn.includes(layout);
      wrapper.classList.toggle('inactive', !drawn);
      let note = wrapper.querySelector(':scope > .layout-note');
      if (!note) {
        const names = onlyIn.length === 1 ? `the ${onlyIn[0]} layout` : `the ${onlyIn.slice(0, -1).join(', ')} and ${onlyIn.at(-1)} layouts`;
        note = element('p', { class: 'layout-note' }, [`Drawn only in ${names}.`]);
        wrapper.querySelector(':scope > .field-error')?.before(note);
      }
      note.toggleAttribute('hidden', drawn);
    }
  };
  markLayout();
  form.addEventListener('input', markLayout);

  /** @param {string} field @param {string} location */
  const controlForProblem = (field, location) => {
    if (location === 'path' || location === 'query') return query.find((control) => control.path === field) ?? query[0];
    // `customBadges.2` belongs to `customBadges`, `rankData.level` to its own control.
    let path = field;
    for (;;) {
      const found = all.find((control) => control.path === path);
      if (found) return found;
      if (!path.includes('.')) return undefined;
      path = path.slice(0, path.lastIndexOf('.'));
    }
  };

  return {
    /** Every field path with a control: query parameters, body fields, nested fields. */
    paths: () => all.map((control) => control.path),
    /** The request the form describes: the user id and the JSON body (fields left empty are left out). */
    read() {
      /** @type {Record<string, string>} */
      const parameters = {};
      for (const control of query) {
        const value = control.read();
        if (value !== undefined) parameters[control.path] = String(value);
      }
      /** @type {Record<string, unknown>} */
      const options = {};
      for (const control of body) {
        const value = control.read();
        if (value !== undefined) options[control.path] = value;
      }
      return { parameters, body: options };
    },
    reset() {
      defaults();
      markLayout();
    },
    /**
     * Writes a request into the form. Fields the design leaves out keep their defaults
     * (`absent: 'default'`, a permalink lists only what differs) or are emptied (`'empty'`, an
     * imported body is the whole body); a null value empties a field.
     * @param {{ parameters?: Record<string, unknown>, body: Record<string, unknown> }} design
     * @param {'default' | 'empty'} absent
     * @returns {string[]} the body's fields the form has no control for
     */
    fill(design, absent) {
      if (absent === 'default') defaults();
      for (const control of query) {
        const value = design.parameters?.[control.path];
        if (value !== undefined) control.write(value ?? undefined);
      }
      for (const control of body) {
        if (Object.hasOwn(design.body, control.path)) control.write(design.body[control.path] ?? undefined);
        else if (absent === 'empty') control.write(undefined);
      }
      markLayout();
      return Object.keys(design.body).filter((name) => !body.some((control) => control.path === name));
    },
    /**
     * The body's fields whose control does not hold the value given (after `fill`): a string where
     * a number goes, a value no choice names, an object with fields the form has not. Leaving out
     * a field whose value is its default (false, the documented choice) says the same thing.
     * @param {Record<string, unknown>} given
     * @returns {string[]}
     */
    cannotHold(given) {
      return body
        .filter((control) => Object.hasOwn(given, control.path))
        .filter((control) => {
          const held = control.read();
          const value = given[control.path];
          if (held === undefined) return !(value === false || (typeof value === 'string' && value === documentedDefault(operation.bodySchema.properties?.[control.path]?.description)));
          return canonicalJson(held) !== canonicalJson(value);
        })
        .map((control) => control.path);
    },
    /**
     * Shows each problem next to the control it names; returns those naming no control.
     * @param {FieldProblem[]} problems
     * @returns {FieldProblem[]}
     */
    showProblems(problems) {
      this.clearProblems();
      /** @type {FieldProblem[]} */
      const unplaced = [];
      for (const problem of problems) {
        const control = controlForProblem(problem.field, problem.in);
        if (!control) {
          unplaced.push(problem);
          continue;
        }
        control.wrapper.classList.add('invalid');
        const message = control.wrapper.querySelector(':scope > .field-error');
        if (message) {
          message.textContent = control.path === problem.field ? problem.message : `${problem.field}: ${problem.message}`;
          message.removeAttribute('hidden');
        }
        for (const input of control.wrapper.querySelectorAll(':scope > .control > :is(input, select, textarea)')) input.setAttribute('aria-invalid', 'true');
      }
      return unplaced;
    },
    clearProblems() {
      for (const wrapper of form.querySelectorAll('.field.invalid')) {
        wrapper.classList.remove('invalid');
        wrapper.querySelector(':scope > .field-error')?.setAttribute('hidden', '');
        for (const input of wrapper.querySelectorAll(':scope > .control > [aria-invalid]')) input.removeAttribute('aria-invalid');
      }
    },
  };
}
