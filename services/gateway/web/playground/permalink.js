// The design in the page's URL, so a reload keeps it and a copied link reproduces it. It lives in
// the fragment (#design=...): a fragment is never sent to a server, so designs stay out of access
// logs and every design shares the one cached page. Only what differs from the form's defaults is
// written (a null for a default emptied), as base64url JSON: short, and nested objects survive.
// The API key is never part of it: it is not a form field. (Browser globals through `window`: the
// lint config names the few the other modules use.)

/**
 * @typedef {{ parameters: Record<string, string>, body: Record<string, unknown> }} Design
 * @typedef {{ parameters: Record<string, string | null>, body: Record<string, unknown>, mode: string }} DesignChanges
 */

/** The mode a link without one means: links written before the leaderboard mode existed are profile cards. */
export const DEFAULT_MODE = 'profile';

const PREFIX = '#design=';

/** @param {Record<string, unknown>} now @param {Record<string, unknown>} before */
function changes(now, before) {
  /** @type {Record<string, unknown>} */
  const changed = {};
  for (const name of new Set([...Object.keys(before), ...Object.keys(now)])) {
    if (JSON.stringify(now[name]) !== JSON.stringify(before[name])) changed[name] = now[name] ?? null;
  }
  return changed;
}

/**
 * The fragment for a design in a mode (its defaults are that mode's), or '' for the default design
 * of the default mode.
 * @param {Design} design @param {Design} defaults @param {string} [mode]
 */
export function fragmentFor(design, defaults, mode = DEFAULT_MODE) {
  const parameters = changes(design.parameters, defaults.parameters);
  const body = changes(design.body, defaults.body);
  if (Object.keys(parameters).length === 0 && Object.keys(body).length === 0 && mode === DEFAULT_MODE) return '';
  /** @type {Record<string, unknown>} */
  const packed = {};
  if (mode !== DEFAULT_MODE) packed.m = mode;
  if (Object.keys(parameters).length > 0) packed.q = parameters;
  if (Object.keys(body).length > 0) packed.b = body;
  const bytes = new window.TextEncoder().encode(JSON.stringify(packed));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `${PREFIX}${window.btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')}`;
}

/**
 * The changes a fragment carries, or undefined for none (or one this page did not write).
 * @param {string} hash `location.hash`
 * @returns {DesignChanges | undefined}
 */
export function changesFrom(hash) {
  if (!hash.startsWith(PREFIX)) return undefined;
  try {
    const binary = window.atob(hash.slice(PREFIX.length).replaceAll('-', '+').replaceAll('_', '/'));
    const packed = JSON.parse(new window.TextDecoder().decode(Uint8Array.from(binary, (character) => character.charCodeAt(0))));
    const object = (/** @type {unknown} */ value) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? /** @type {Record<string, any>} */ (value) : {});
    return { parameters: object(packed?.q), body: object(packed?.b), mode: typeof packed?.m === 'string' ? packed.m : DEFAULT_MODE };
  } catch {
    return undefined;
  }
}
