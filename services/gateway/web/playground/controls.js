// One form control per JSON Schema shape: checkbox, segmented choice, colour, text, number (with a
// slider for short ranges), list, nested object, and raw JSON for anything else. Each control reads
// the value to send (undefined: leave the field out) and writes one back.

import { element, firstSentence, richText } from './dom.js';

/**
 * @typedef {import('./schema-form.js').JsonSchema} JsonSchema
 * @typedef {import('./schema-form.js').Control} Control
 */

/**
 * The default a description names, when it is short enough for a label: "`png` (default",
 * "Default 60.", "Default: `en`", "Default: none". Longer ones ("the display name, else the
 * username") stay in the description.
 */
export function documentedDefault(description = '') {
  const marked = /`([^`]+)` \(default/.exec(description);
  if (marked) return marked[1];
  const named = /Default:? (?:`([^`]+)`|([^.;]+))/.exec(description);
  const value = (named?.[1] ?? named?.[2])?.trim();
  return value !== undefined && value.length <= 24 ? value : undefined;
}

/** The first sentence of a description, cut to a hint's length (the whole text is the tooltip). */
function shortHint(/** @type {string} */ description) {
  const sentence = firstSentence(description);
  if (sentence.length <= 120) return sentence;
  let cut = sentence.slice(0, sentence.lastIndexOf(' ', 110));
  // Never leave a code span open.
  if ((cut.split('`').length - 1) % 2 === 1) cut = cut.slice(0, cut.lastIndexOf('`'));
  return `${cut.replace(/[\s,;:(]+$/, '')}…`;
}

export const typeOf = (/** @type {JsonSchema} */ schema) => (Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type);
const isColour = (/** @type {JsonSchema} */ schema) => typeOf(schema) === 'string' && /0-9a-fA-F\]\{6\}|0-9a-f\]\{6\}/i.test(schema.pattern ?? '');
const isUrl = (/** @type {JsonSchema} */ schema) => (schema.examples ?? []).some((example) => /^https?:\/\//.test(String(example)));
const idFor = (/** @type {string} */ path) => `field-${path.replaceAll('.', '-')}`;

/**
 * The description under a control: its first sentence, and the whole text one click away (phones
 * have no tooltips).
 * @param {string} description
 */
function hintFor(description) {
  const short = shortHint(description);
  if (short === description) return element('p', { class: 'hint' }, [richText(description)]);
  return element('details', { class: 'hint' }, [element('summary', {}, [element('span', { class: 'short' }, [richText(short)])]), element('p', {}, [richText(description)])]);
}

/**
 * The wrapper every control sits in: label, control, short hint, and the place for the API's error.
 * @param {string} path
 * @param {JsonSchema} schema
 * @param {HTMLElement[]} controls
 * @param {{ label?: string, inline?: boolean }} [options]
 */
function fieldWrapper(path, schema, controls, options = {}) {
  const name = path.split('.').pop() ?? path;
  const fallback = documentedDefault(schema.description);
  // The whole description is the label's tooltip; the hint under the control is its first sentence.
  const label = element('label', { for: idFor(path), title: schema.description || undefined }, [element('span', { class: 'field-name' }, [options.label ?? name])]);
  if (fallback !== undefined && typeOf(schema) !== 'boolean') label.append(' ', element('span', { class: 'default' }, [`default ${fallback}`]));
  const hint = schema.description ? hintFor(schema.description) : undefined;
  const wrapper = element('div', { class: options.inline ? 'field field-inline' : 'field', 'data-field': path }, [
    ...(options.inline ? [] : [label]),
    element('div', { class: 'control' }, controls),
    ...(options.inline ? [label] : []),
    hint,
    element('p', { class: 'field-error', role: 'alert', hidden: true }),
  ]);
  return wrapper;
}

/** @param {string} path @param {JsonSchema} schema @param {boolean} alwaysSent @returns {Control} */
function checkboxControl(path, schema, alwaysSent) {
  const input = /** @type {HTMLInputElement} */ (element('input', { type: 'checkbox', id: idFor(path) }));
  return {
    path,
    wrapper: fieldWrapper(path, schema, [input], { inline: true }),
    // Booleans default to false: unchecked is left out, unless the enclosing object needs every field.
    read: () => (input.checked ? true : alwaysSent ? false : undefined),
    write: (value) => {
      input.checked = value === true;
    },
    focus: () => input.focus(),
  };
}

/** Segmented radio buttons for short enums, a select for long ones. @returns {Control} */
function choiceControl(/** @type {string} */ path, /** @type {JsonSchema} */ schema) {
  const values = (schema.enum ?? []).map(String);
  // The value as the document lists it: a number enum (`scale`: 1, 2) is sent as a number, not as the radio's text.
  const original = (/** @type {string} */ text) => (schema.enum ?? []).find((value) => String(value) === text) ?? text;
  const fallback = documentedDefault(schema.description);
  const defaultIsValue = fallback !== undefined && values.includes(fallback);
  // The option that sends nothing: the documented default when it is one of the values.
  const choices = defaultIsValue ? values.map((value) => ({ value: value === fallback ? '' : value, label: value })) : [{ value: '', label: 'default' }, ...values.map((value) => ({ value, label: value }))];
  if (choices.length > 6) {
    const select = /** @type {HTMLSelectElement} */ (element('select', { id: idFor(path) }, choices.map((choice) => element('option', { value: choice.value }, [choice.label]))));
    return {
      path,
      wrapper: fieldWrapper(path, schema, [select]),
      read: () => (select.value === '' ? undefined : original(select.value)),
      write: (value) => {
        select.value = value === undefined || value === fallback ? '' : String(value);
      },
      focus: () => select.focus(),
    };
  }
  const name = idFor(path);
  const radios = choices.map((choice, index) =>
    /** @type {HTMLInputElement} */ (element('input', { type: 'radio', name, value: choice.value, id: index === 0 ? name : `${name}-${index}` })),
  );
  const segments = element(
    'div',
    { class: 'segments', role: 'radiogroup' },
    choices.map((choice, index) => element('label', { class: 'segment' }, [radios[index], element('span', {}, [choice.label])])),
  );
  const write = (/** @type {unknown} */ value) => {
    const wanted = value === undefined || value === fallback ? '' : String(value);
    for (const radio of radios) radio.checked = radio.value === wanted;
  };
  write(undefined);
  return {
    path,
    wrapper: fieldWrapper(path, schema, [segments]),
    read: () => {
      const checked = radios.find((radio) => radio.checked);
      return checked === undefined || checked.value === '' ? undefined : original(checked.value);
    },
    write,
    focus: () => (radios.find((radio) => radio.checked) ?? radios[0])?.focus(),
  };
}

/** A hex text field with a colour picker beside it; the text is what is sent. @returns {Control} */
function colourControl(/** @type {string} */ path, /** @type {JsonSchema} */ schema) {
  const fallback = documentedDefault(schema.description);
  // "#FFFFFF", or the colour in "a light grey (#C9CDD6)".
  const fallbackHex = /#[0-9a-f]{6}\b/i.exec(fallback ?? '')?.[0];
  const text = /** @type {HTMLInputElement} */ (element('input', { type: 'text', id: idFor(path), placeholder: fallbackHex ?? '#RRGGBB', spellcheck: 'false', autocomplete: 'off', class: 'colour-text' }));
  const picker = /** @type {HTMLInputElement} */ (element('input', { type: 'color', 'aria-label': `${path} picker`, class: 'colour-picker' }));
  const syncPicker = () => {
    // Left empty, the picker shows the default colour when the description names one.
    const digits = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text.value.trim() || fallbackHex || '')?.[1];
    if (digits) picker.value = `#${digits.length === 3 ? [...digits].map((digit) => digit + digit).join('') : digits}`.toLowerCase();
    picker.classList.toggle('unset', text.value.trim() === '');
  };
  text.addEventListener('input', syncPicker);
  picker.addEventListener('input', () => {
    text.value = picker.value;
    picker.classList.remove('unset');
  });
  return {
    path,
    wrapper: fieldWrapper(path, schema, [picker, text]),
    read: () => (text.value.trim() === '' ? undefined : text.value.trim()),
    write: (value) => {
      text.value = value === undefined ? '' : String(value);
      syncPicker();
    },
    focus: () => text.focus(),
  };
}

/** @returns {Control} */
export function textControl(/** @type {string} */ path, /** @type {JsonSchema} */ schema, /** @type {string | undefined} */ placeholder) {
  const input = /** @type {HTMLInputElement} */ (
    element('input', {
      type: isUrl(schema) ? 'url' : 'text',
      id: idFor(path),
      maxlength: schema.maxLength,
      placeholder: placeholder ?? (isUrl(schema) ? 'https://…' : undefined),
      spellcheck: 'false',
      autocomplete: 'off',
    })
  );
  return {
    path,
    wrapper: fieldWrapper(path, schema, [input]),
    read: () => (input.value === '' ? undefined : input.value),
    write: (value) => {
      input.value = value === undefined ? '' : String(value);
    },
    focus: () => input.focus(),
  };
}

/** A number field; a slider beside it when the range is short (brightness). @returns {Control} */
function numberControl(/** @type {string} */ path, /** @type {JsonSchema} */ schema) {
  const { minimum, maximum } = schema;
  const step = typeOf(schema) === 'integer' ? '1' : 'any';
  const input = /** @type {HTMLInputElement} */ (element('input', { type: 'number', id: idFor(path), min: minimum, max: maximum, step, inputmode: step === '1' ? 'numeric' : 'decimal' }));
  const controls = [input];
  const sliderFits = minimum !== undefined && maximum !== undefined && maximum - minimum <= 1000;
  const slider = sliderFits ? /** @type {HTMLInputElement} */ (element('input', { type: 'range', min: minimum, max: maximum, step: 1, 'aria-label': `${path} slider` })) : undefined;
  const fallback = documentedDefault(schema.description);
  const syncSlider = () => {
    if (!slider) return;
    slider.value = input.value !== '' ? input.value : (fallback ?? String(minimum));
    slider.classList.toggle('unset', input.value === '');
  };
  if (slider) {
    controls.unshift(slider);
    slider.addEventListener('input', () => {
      input.value = slider.value;
      slider.classList.remove('unset');
    });
    input.addEventListener('input', syncSlider);
  }
  return {
    path,
    wrapper: fieldWrapper(path, schema, controls),
    // `valueAsNumber` is NaN for text the browser cannot read; the raw text then goes to the API as
    // it is, so its 400 explains the problem instead of the field silently disappearing.
    read: () => (input.value === '' ? undefined : Number.isNaN(input.valueAsNumber) ? input.value : input.valueAsNumber),
    write: (value) => {
      input.value = value === undefined ? '' : String(value);
      syncSlider();
    },
    focus: () => input.focus(),
  };
}

/** One string per line, for arrays of strings (badge URLs). @returns {Control} */
function listControl(/** @type {string} */ path, /** @type {JsonSchema} */ schema) {
  const area = /** @type {HTMLTextAreaElement} */ (element('textarea', { id: idFor(path), rows: 3, spellcheck: 'false', placeholder: isUrl(schema.items ?? {}) ? 'One URL per line' : 'One value per line' }));
  const wrapper = fieldWrapper(path, schema, [area]);
  if (schema.maxItems !== undefined) wrapper.querySelector('.field-name')?.after(' ', element('span', { class: 'default' }, [`up to ${schema.maxItems}`]));
  return {
    path,
    wrapper,
    read: () => {
      const lines = area.value.split('\n').map((line) => line.trim()).filter((line) => line !== '');
      return lines.length === 0 ? undefined : lines;
    },
    write: (value) => {
      area.value = Array.isArray(value) ? value.join('\n') : '';
    },
    focus: () => area.focus(),
  };
}

/** Any other shape: the value as JSON text, so no field is ever without a control. @returns {Control} */
function jsonControl(/** @type {string} */ path, /** @type {JsonSchema} */ schema) {
  // A list of objects (a leaderboard's rows) is written one item per line, in a taller box.
  const listOfObjects = typeOf(schema) === 'array';
  const area = /** @type {HTMLTextAreaElement} */ (element('textarea', { id: idFor(path), rows: listOfObjects ? 8 : 2, spellcheck: 'false', placeholder: listOfObjects ? 'JSON list: [{ … }, { … }]' : 'JSON value', class: listOfObjects ? 'json-list' : undefined }));
  const wrapper = fieldWrapper(path, schema, [area]);
  if (schema.maxItems !== undefined) wrapper.querySelector('.field-name')?.after(' ', element('span', { class: 'default' }, [`up to ${schema.maxItems}`]));
  // A list's lines are long: the whole row of the grid.
  if (listOfObjects) wrapper.classList.add('field-wide');
  return {
    path,
    wrapper,
    read: () => {
      if (area.value.trim() === '') return undefined;
      try {
        return JSON.parse(area.value);
      } catch {
        // Sent as text: the API's 400 then names the field and what it expects.
        return area.value;
      }
    },
    write: (value) => {
      area.value = value === undefined ? '' : listOfObjects && Array.isArray(value) ? `[\n${value.map((item) => `  ${JSON.stringify(item)}`).join(',\n')}\n]` : JSON.stringify(value);
    },
    focus: () => area.focus(),
  };
}

/**
 * An object field (rankData): a switch that includes it, and a control for each of its fields.
 * When the object is required as a whole, its booleans are always sent.
 * @returns {{ control: Control, children: Control[] }}
 */
function objectControl(/** @type {string} */ path, /** @type {JsonSchema} */ schema) {
  const toggle = /** @type {HTMLInputElement} */ (element('input', { type: 'checkbox', id: idFor(path) }));
  const required = new Set(schema.required ?? []);
  const children = Object.entries(schema.properties ?? {}).flatMap(([name, child]) => controlsFor(`${path}.${name}`, child, required.has(name)));
  const inner = /** @type {HTMLFieldSetElement} */ (element('fieldset', { class: 'object-fields' }, [element('legend', { class: 'visually-hidden' }, [path]), ...children.map((child) => child.wrapper)]));
  const wrapper = fieldWrapper(path, schema, [toggle], { inline: true, label: `Include ${path}` });
  wrapper.classList.add('field-object');
  wrapper.append(inner);
  const sync = () => {
    inner.disabled = !toggle.checked;
  };
  toggle.addEventListener('change', sync);
  return {
    control: {
      path,
      wrapper,
      read: () => {
        if (!toggle.checked) return undefined;
        /** @type {Record<string, unknown>} */
        const value = {};
        for (const child of children) {
          const childValue = child.read();
          if (childValue !== undefined && !child.path.slice(path.length + 1).includes('.')) value[child.path.slice(path.length + 1)] = childValue;
        }
        return value;
      },
      write: (value) => {
        toggle.checked = value !== undefined && value !== null && typeof value === 'object';
        const object = /** @type {Record<string, unknown>} */ (toggle.checked ? value : {});
        for (const child of children) if (!child.path.slice(path.length + 1).includes('.')) child.write(object[child.path.slice(path.length + 1)]);
        sync();
      },
      focus: () => toggle.focus(),
    },
    children,
  };
}

/**
 * The control for one field and, for an object, its fields' controls after it.
 * @param {string} path
 * @param {JsonSchema} schema
 * @param {boolean} [requiredInParent]
 * @returns {Control[]}
 */
export function controlsFor(path, schema, requiredInParent = false) {
  const type = typeOf(schema);
  if (Array.isArray(schema.enum)) return [choiceControl(path, schema)];
  if (type === 'boolean') return [checkboxControl(path, schema, requiredInParent)];
  if (isColour(schema)) return [colourControl(path, schema)];
  if (type === 'string') return [textControl(path, schema, undefined)];
  if (type === 'number' || type === 'integer') return [numberControl(path, schema)];
  if (type === 'array' && typeOf(schema.items ?? {}) === 'string') return [listControl(path, schema)];
  if (type === 'object' && schema.properties) {
    const { control, children } = objectControl(path, schema);
    return [control, ...children];
  }
  return [jsonControl(path, schema)];
}
