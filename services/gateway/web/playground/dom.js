// Small DOM helpers. Every text goes in through textContent, never innerHTML: descriptions and
// error messages come from the API and must stay text.

/**
 * Creates an element. `attributes` values: strings become attributes, `true` an empty attribute,
 * `false`/undefined nothing; `on<Event>` functions become listeners.
 * @param {string} tag
 * @param {Record<string, unknown>} [attributes]
 * @param {Array<Node | string | false | undefined | null>} [children]
 * @returns {HTMLElement}
 */
export function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false || value === null) continue;
    if (name.startsWith('on') && typeof value === 'function') node.addEventListener(name.slice(2).toLowerCase(), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === undefined || child === false || child === null) continue;
    node.append(child);
  }
  return node;
}

/**
 * Text where `code spans` (as the API's descriptions write them) become <code> elements.
 * @param {string} text
 * @returns {DocumentFragment}
 */
export function richText(text) {
  const fragment = document.createDocumentFragment();
  text.split('`').forEach((part, index) => {
    if (part === '') return;
    fragment.append(index % 2 === 1 ? element('code', {}, [part]) : part);
  });
  return fragment;
}

/**
 * The first sentence of a description, for the short hint under a control (the whole description
 * stays available as the control's tooltip).
 * @param {string} text
 */
export function firstSentence(text) {
  // A sentence ends at ". " outside a code span; abbreviations such as "e.g." do not occur in ours.
  let inCode = false;
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] === '`') inCode = !inCode;
    if (!inCode && text[index] === '.' && (text[index + 1] === ' ' || index === text.length - 1)) return text.slice(0, index + 1);
  }
  return text;
}

/**
 * @param {string} selector
 * @returns {HTMLElement}
 */
export function byId(selector) {
  const found = document.getElementById(selector);
  if (!found) throw new Error(`the page has no #${selector}`);
  return found;
}
