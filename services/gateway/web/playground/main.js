// The card playground: loads the API's OpenAPI document, builds the form from it, and wires the
// key, the live preview and the code snippets together.

import { byId, element } from './dom.js';
import { changesFrom, DEFAULT_MODE, fragmentFor } from './permalink.js';
import { createPreviewer, problemOf } from './preview.js';
import { buildCardForm, findCardOperation } from './schema-form.js';
import { imageTypeFor, SNIPPETS } from './snippets.js';

/** sessionStorage only, and only when asked: the key dies with the tab. */
const KEY_STORAGE = 'utility-api-playground-key';
/**
 * What the playground draws: each an operation of the API with its own form and snippets. Signed
 * in to the account area, profile previews go to `sessionPreview` with the session instead of a
 * key; the account area previews nothing else, so a leaderboard needs a key.
 * @type {Record<string, { operationId: string, heading: string, exportName: string, sessionPreview?: string }>}
 */
const MODES = {
  profile: { operationId: 'createProfileImage', heading: 'Card options', exportName: 'card.json', sessionPreview: '/account/api/preview/profile-image' },
  leaderboard: { operationId: 'createLeaderboardImage', heading: 'Leaderboard options', exportName: 'leaderboard.json' },
};

const page = {
  keyInput: /** @type {HTMLInputElement} */ (byId('api-key')),
  keyToggle: byId('api-key-toggle'),
  keyRemember: /** @type {HTMLInputElement} */ (byId('api-key-remember')),
  keyError: /** @type {HTMLElement} */ (byId('api-key').closest('.field')?.querySelector('.field-error')),
  keyField: byId('api-key').closest('.field'),
  signedIn: byId('signed-in'),
  getKey: byId('get-key'),
  form: /** @type {HTMLFormElement} */ (byId('card-form')),
  formHeading: byId('options-heading'),
  modeRadios: /** @type {HTMLInputElement[]} */ ([...document.querySelectorAll('input[name="mode"]')]),
  saveTemplate: byId('save-template'),
  templateSave: byId('template-save'),
  templateName: /** @type {HTMLInputElement} */ (byId('template-name')),
  templateApply: byId('template-save-apply'),
  templateCancel: byId('template-save-cancel'),
  templateError: byId('template-error'),
  templateResult: byId('template-result'),
  formStatus: byId('form-status'),
  reset: byId('reset-form'),
  preview: byId('preview'),
  image: /** @type {HTMLImageElement} */ (byId('preview-image')),
  discordImage: /** @type {HTMLImageElement} */ (byId('preview-discord')),
  /** The Discord-size panel, hidden (not left as an empty box) until there is a card to show. */
  discordSize: /** @type {HTMLElement} */ (byId('preview-discord-size').closest('.discord-panel')),
  discordCaption: /** @type {HTMLElement} */ (byId('preview-discord-size').querySelector('figcaption')),
  fullSize: byId('preview-full-size'),
  format: byId('preview-format'),
  exportJson: byId('export-json'),
  importJson: byId('import-json'),
  importDialog: /** @type {HTMLDialogElement} */ (byId('import-dialog')),
  importText: /** @type {HTMLTextAreaElement} */ (byId('import-text')),
  importError: byId('import-error'),
  importApply: byId('import-apply'),
  importCancel: byId('import-cancel'),
  importNote: byId('import-note'),
  placeholder: byId('preview-placeholder'),
  status: byId('preview-status'),
  error: byId('preview-error'),
  snippet: byId('snippet-code'),
  snippetNote: byId('snippet-note'),
  copy: byId('copy-snippet'),
  tabs: [...document.querySelectorAll('[data-snippet]')],
};

/** @param {number} bytes */
const kilobytes = (bytes) => `${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} KB`;

function setupKey(/** @type {() => void} */ onChange) {
  const stored = sessionStorage.getItem(KEY_STORAGE);
  if (stored) {
    page.keyInput.value = stored;
    page.keyRemember.checked = true;
  }
  const remember = () => {
    if (page.keyRemember.checked && page.keyInput.value.trim() !== '') sessionStorage.setItem(KEY_STORAGE, page.keyInput.value.trim());
    else sessionStorage.removeItem(KEY_STORAGE);
  };
  page.keyInput.addEventListener('input', () => {
    remember();
    page.keyError.hidden = true;
    onChange();
  });
  page.keyRemember.addEventListener('change', remember);
  page.keyToggle.addEventListener('click', () => {
    const showing = page.keyInput.type === 'text';
    page.keyInput.type = showing ? 'password' : 'text';
    page.keyToggle.textContent = showing ? 'Show' : 'Hide';
    page.keyToggle.setAttribute('aria-pressed', String(!showing));
  });
}

/** The tabs and the copy button over the snippet of the current form. */
function setupSnippets(/** @type {() => import('./snippets.js').CardCall | undefined} */ currentCall) {
  let selected = 'curl';
  const render = () => {
    const call = currentCall();
    const snippet = SNIPPETS[/** @type {keyof typeof SNIPPETS} */ (selected)];
    page.snippet.textContent = call ? snippet.build(call) : '';
    page.snippetNote.textContent = call ? snippet.note(call) : '';
  };
  for (const tab of page.tabs) {
    tab.addEventListener('click', () => {
      selected = tab.getAttribute('data-snippet') ?? 'curl';
      for (const other of page.tabs) other.setAttribute('aria-selected', String(other === tab));
      render();
    });
  }
  page.copy.addEventListener('click', async () => {
    const text = page.snippet.textContent ?? '';
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // No clipboard API (a plain-http page off localhost): select the text for Ctrl+C instead.
      const range = document.createRange();
      range.selectNodeContents(page.snippet);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
      page.copy.textContent = 'Press Ctrl+C';
      return;
    }
    page.copy.textContent = 'Copied';
    page.copy.classList.add('done');
    setTimeout(() => {
      page.copy.textContent = 'Copy';
      page.copy.classList.remove('done');
    }, 1500);
  });
  return render;
}

/**
 * Export downloads the body the API gets as card.json (leaderboard.json for a board); import takes
 * a pasted body into the form, switching to the mode whose operation knows more of its fields.
 * A field the form has no control for, or whose value its control cannot hold as given (a string
 * where a number goes, a value no choice names), is marked next to its control at once and handed
 * to `onImport` to be sent as imported, so the API's own validation judges it; nothing is dropped.
 * @param {() => ReturnType<typeof buildCardForm>} currentForm
 * @param {() => Record<string, unknown>} requestBody the body the preview sends
 * @param {() => string} exportName
 * @param {(body: Record<string, unknown>) => void} chooseMode switches the form to the body's mode
 * @param {(extras: Record<string, unknown>) => void} onImport
 */
function setupImportExport(currentForm, requestBody, exportName, chooseMode, onImport) {
  page.exportJson.addEventListener('click', () => {
    const blob = new Blob([`${JSON.stringify(requestBody(), null, 2)}\n`], { type: 'application/json' });
    const url = URL.createObjectURL(blob);
    const link = element('a', { href: url, download: exportName() });
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  const refuse = (/** @type {string} */ message) => {
    page.importError.textContent = message;
    page.importError.hidden = false;
    page.importText.setAttribute('aria-invalid', 'true');
    page.importText.focus();
  };
  page.importJson.addEventListener('click', () => {
    page.importError.hidden = true;
    page.importText.removeAttribute('aria-invalid');
    page.importText.value = '';
    page.importDialog.showModal();
  });
  page.importCancel.addEventListener('click', () => page.importDialog.close());
  page.importApply.addEventListener('click', () => {
    let body;
    try {
      body = JSON.parse(page.importText.value);
    } catch (error) {
      refuse(`Not JSON: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      refuse('The body is a JSON object: { "layout": "welcome", … }.');
      return;
    }
    chooseMode(body);
    const form = currentForm();
    const unknown = form.fill({ body }, 'empty');
    const misfits = form.cannotHold(body);
    page.importDialog.close();
    form.showProblems(misfits.map((name) => ({ in: 'body', field: name, message: `imported as ${JSON.stringify(body[name])}, which this control cannot show; sent as imported for the API to judge` })));
    page.importNote.textContent = unknown.length > 0 ? `Imported. Not fields of this API: ${unknown.join(', ')}.` : 'Imported.';
    page.importNote.hidden = false;
    onImport(Object.fromEntries([...unknown, ...misfits].map((name) => [name, body[name]])));
  });
}

/** Discord's chat shows a 900 px wide card this wide on a desktop (the figure's CSS width). */
const DISCORD_DISPLAY_WIDTH = 400;

/**
 * The Discord-size caption says the width the copy is really shown at: 400 px, or on a screen too
 * narrow for that (a phone, where Discord's own app also fits the card to the screen) the width it has.
 */
function captionDiscordWidth() {
  const caption = page.discordCaption.textContent ?? '';
  new window.ResizeObserver(() => {
    const width = Math.round(page.discordImage.getBoundingClientRect().width);
    page.discordCaption.textContent = width === 0 || width >= DISCORD_DISPLAY_WIDTH ? caption : `${caption} on a desktop; ${width} px here, fitted to this screen as Discord's app fits it`;
  }).observe(page.discordImage);
}

/** Rate limit countdown in the status line while a 429 is waited out. */
function countdown(/** @type {() => number} */ until) {
  const tick = () => {
    const seconds = Math.ceil((until() - Date.now()) / 1000);
    if (seconds <= 0 || page.preview.dataset.state !== 'error') return;
    page.status.textContent = `Rate limited: trying again in ${seconds} s.`;
    setTimeout(tick, 250);
  };
  tick();
}

/**
 * The account-area session of this browser, if any: previews then need no key and spend the
 * account's preview budget. Anything but a 200 means no session (signed out, or no account area).
 * @returns {Promise<{ csrfToken: string, name: string } | undefined>}
 */
async function accountSession() {
  try {
    // Asked first because it always answers 200: a visitor who is not signed in sees no failed request.
    const options = await fetch('/account/api/sign-in-options', { credentials: 'same-origin', cache: 'no-store' });
    if (!options.ok || (await options.json())?.signedIn !== true) return undefined;
    const response = await fetch('/account/api/me', { credentials: 'same-origin', cache: 'no-store' });
    if (!response.ok) return undefined;
    const me = await response.json();
    return typeof me?.csrfToken === 'string' ? { csrfToken: me.csrfToken, name: String(me.account?.name ?? 'your account') } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The operations the page uses, from the OpenAPI document: the profile card's (required), the
 * leaderboard's and the template store's (each left out when this deployment has none).
 */
async function loadOperations() {
  const response = await fetch('/v1/openapi.json', { credentials: 'omit' });
  if (!response.ok) throw new Error(`The OpenAPI document did not load (${response.status}).`);
  const document = await response.json();
  const optional = (/** @type {string} */ operationId) => {
    try {
      return findCardOperation(document, operationId);
    } catch {
      return undefined;
    }
  };
  /** @type {Record<string, import('./schema-form.js').CardOperation | undefined>} */
  const cards = { profile: findCardOperation(document, MODES.profile.operationId), leaderboard: optional(MODES.leaderboard.operationId) };
  return { cards, templates: optional('createTemplate') };
}

/**
 * The body fields a template of this kind may hold, from the document's template body: one variant
 * per kind (the `profile` one has `kind` optional, its default), each with its `fields` schema.
 * @param {Record<string, any>} bodySchema the `POST /v1/templates` body schema
 * @param {string} kind
 */
function templateFieldsOf(bodySchema, kind) {
  // `anyOf`: the document writes a union whose tag may be left out that way (openapi-document.ts).
  const variants = /** @type {Record<string, any>[]} */ (bodySchema.anyOf ?? bodySchema.oneOf ?? [bodySchema]);
  const variant = variants.find((candidate) => (candidate.properties?.kind?.const ?? 'profile') === kind);
  return new Set(Object.keys(variant?.properties?.fields?.properties ?? {}));
}

/**
 * "Save as template": the design of the card shown (a profile card or a leaderboard, the template's
 * kind), minus the fields a template cannot hold (the member's own, a board's rows: the document's
 * template `fields` schema of that kind lists what it can), saved with the key. Templates belong to
 * a key's account and the account area has no session route for them, so this needs the key even
 * when signed in; it says so instead of trying.
 * @param {import('./schema-form.js').CardOperation} operation `POST /v1/templates`
 * @param {() => Record<string, unknown>} requestBody
 * @param {() => string} currentMode the kind of card shown: the template's kind
 */
function setupTemplates(operation, requestBody, currentMode) {
  const fail = (/** @type {(string | Node)[]} */ ...content) => {
    page.templateError.replaceChildren(...content);
    page.templateError.hidden = false;
  };
  page.saveTemplate.addEventListener('click', () => {
    page.templateSave.hidden = false;
    page.templateError.hidden = true;
    page.templateResult.hidden = true;
    page.templateName.focus();
  });
  page.templateCancel.addEventListener('click', () => {
    page.templateSave.hidden = true;
  });
  page.templateApply.addEventListener('click', async () => {
    page.templateError.hidden = true;
    page.templateResult.hidden = true;
    const key = page.keyInput.value.trim();
    if (key === '') {
      fail('Saving a template needs an API key: templates belong to the key\u2019s account, and the signed-in preview cannot save one. Paste a key above.');
      return;
    }
    const kind = currentMode();
    const allowed = templateFieldsOf(operation.bodySchema, kind);
    const body = requestBody();
    const fields = Object.fromEntries(Object.entries(body).filter(([name]) => allowed.has(name)));
    const leftOut = Object.keys(body).filter((name) => !allowed.has(name));
    page.templateApply.setAttribute('disabled', '');
    try {
      // The name goes as typed: the API's 400 names an empty or too long one.
      const response = await fetch(operation.path, {
        method: 'POST',
        credentials: 'omit',
        headers: { Authorization: key, 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ name: page.templateName.value, kind, fields }),
      });
      if (response.status !== 201) {
        const problem = await problemOf(response);
        fail(
          element('strong', {}, [`${problem.status} ${problem.code}`]),
          ' ',
          problem.message,
          ...(problem.details.length > 0 ? [element('ul', {}, problem.details.map((detail) => element('li', {}, [`${detail.field}: ${detail.message}`])))] : []),
        );
        return;
      }
      const template = await response.json();
      page.templateResult.replaceChildren(
        element('p', {}, [
          'Saved \u201c', String(template.name), '\u201d as ', element('code', { class: 'template-id' }, [String(template.id)]),
          `, a ${kind} design. Name it in a ${kind === 'leaderboard' ? 'leaderboard' : 'card'} request; the request\u2019s own fields add to or override it:`,
        ]),
        element('pre', {}, [element('code', {}, [`"template": ${JSON.stringify(template.id)}`])]),
        ...(leftOut.length > 0
          ? [element('p', { class: 'hint' }, [`Not saved, as a template cannot hold them (each request gives ${kind === 'leaderboard' ? 'the board\u2019s rows' : 'the member\u2019s own'}): ${leftOut.join(', ')}.`])]
          : []),
      );
      page.templateResult.hidden = false;
    } catch (error) {
      fail(`The API did not answer (${error instanceof Error ? error.message : String(error)}).`);
    } finally {
      page.templateApply.removeAttribute('disabled');
    }
  });
}

async function main() {
  page.form.addEventListener('submit', (event) => event.preventDefault());
  let operations;
  try {
    operations = await loadOperations();
  } catch (error) {
    page.formStatus.textContent = error instanceof Error ? error.message : String(error);
    page.formStatus.classList.add('error-text');
    return;
  }
  const session = await accountSession();
  if (session) {
    page.getKey.hidden = true;
    page.signedIn.hidden = false;
    page.signedIn.replaceChildren(
      'Signed in as ',
      element('strong', {}, [session.name]),
      ': previews use your account\'s own preview budget, never a key\'s card budget. ',
      element('a', { href: '/account' }, ['Your keys and usage']),
    );
  }
  for (const radio of page.modeRadios) radio.disabled = operations.cards[radio.value] === undefined;

  // The current mode, its operation and form, and the form's defaults before a permalink changes
  // anything (the link carries only what differs): all replaced together when the mode changes.
  let mode = DEFAULT_MODE;
  let operation = /** @type {import('./schema-form.js').CardOperation} */ (operations.cards[DEFAULT_MODE]);
  // Each mode's form is built in a part of the page's form, replaced whole by the next mode's.
  const newFormPart = () => {
    const part = element('div', { class: 'form-part' });
    page.form.replaceChildren(part);
    return part;
  };
  let form = buildCardForm(newFormPart(), operation);
  let defaults = form.read();
  /** The format choice that sends nothing, as the document names it (png). */
  let documentedFormat = '';
  /** Whether this mode's previews go with the session: only the profile card has a session route. */
  const sessionPreview = () => (session ? MODES[mode]?.sessionPreview : undefined);
  const hasCredential = () => sessionPreview() !== undefined || page.keyInput.value.trim() !== '';
  const waitingText = () => (session && !sessionPreview() ? 'Leaderboard previews need an API key: the signed-in preview draws profile cards only.' : 'Enter your API key to see the card.');
  /** @param {string} wanted */
  const switchMode = (wanted) => {
    const next = operations.cards[wanted] ? wanted : DEFAULT_MODE;
    for (const radio of page.modeRadios) radio.checked = radio.value === next;
    if (next === mode) return;
    mode = next;
    operation = /** @type {import('./schema-form.js').CardOperation} */ (operations.cards[mode]);
    // The old controls go, and with them their listeners.
    form = buildCardForm(newFormPart(), operation);
    defaults = form.read();
    showMode();
    // The other kind of card is no preview of this one.
    page.image.hidden = true;
    page.discordSize.hidden = true;
    page.format.hidden = true;
    page.error.hidden = true;
    page.status.textContent = '';
    page.placeholder.hidden = false;
    page.placeholder.textContent = hasCredential() ? 'Drawing…' : waitingText();
  };
  const showMode = () => {
    page.formHeading.textContent = MODES[mode]?.heading ?? 'Options';
    // A board is taller than a 3:1 card: the preview's shape follows (playground.css).
    page.preview.dataset.kind = mode;
    page.keyField.hidden = sessionPreview() !== undefined;
    // Both kinds of card can be saved: the template takes the kind shown.
    page.saveTemplate.hidden = operations.templates === undefined;
    if (page.saveTemplate.hidden) page.templateSave.hidden = true;
    documentedFormat = page.form.querySelector('[data-field="format"] input[value=""] + span')?.textContent ?? '';
    page.formStatus.textContent = `${form.paths().length} options, read from the API's own OpenAPI document. Empty fields are left out and take their defaults.`;
  };
  showMode();

  const linked = changesFrom(window.location.hash);
  if (linked) {
    switchMode(linked.mode);
    form.fill(linked, 'default');
  }
  /**
   * Fields of an imported body the form cannot hold (unknown ones, values no control takes): sent
   * as imported until the next edit, so the API's own validation names them. Not in the link.
   * @type {Record<string, unknown>}
   */
  let importedExtras = {};
  /** The body the preview sends, the JSON tab shows and Export saves: one function, so they never differ. */
  const requestBody = () => ({ ...form.read().body, ...importedExtras });

  const currentCall = () => ({ serverUrl: operation.serverUrl, path: operation.path, parameters: form.read().parameters, body: requestBody(), kind: /** @type {'profile' | 'leaderboard'} */ (mode) });
  let objectUrl = '';
  const previewer = createPreviewer({
    buildRequest() {
      const { parameters } = form.read();
      const body = requestBody();
      // The preview takes the shape of the card asked for: 3:1, or 16:9 for the tall welcome card (playground.css).
      page.preview.dataset.layout = typeof body.layout === 'string' ? body.layout : 'profile';
      const query = new URLSearchParams(parameters).toString();
      const search = query ? `?${query}` : '';
      const sessionPath = sessionPreview();
      if (session && sessionPath) return { path: `${sessionPath}${search}`, csrfToken: session.csrfToken, accept: imageTypeFor(body), body };
      const key = page.keyInput.value.trim();
      if (key === '') return undefined;
      return { path: `${operation.path}${search}`, key, accept: imageTypeFor(body), body };
    },
    onStart() {
      page.preview.dataset.state = 'loading';
      page.preview.setAttribute('aria-busy', 'true');
    },
    onAnswer(answer) {
      form.clearProblems();
      page.error.hidden = true;
      page.keyError.hidden = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
      objectUrl = URL.createObjectURL(answer.blob);
      page.image.src = objectUrl;
      page.image.alt = answer.altText || 'The card';
      page.image.hidden = false;
      // The same card at the width Discord gives a 900 (960) px wide image in a chat message.
      page.discordImage.src = objectUrl;
      page.discordImage.alt = page.image.alt;
      page.discordSize.hidden = false;
      // What the API sent, from its Content-Type, not what the form asked for.
      const format = answer.contentType.replace(/^image\//, '').replace(/;.*/, '').toUpperCase();
      page.format.textContent = answer.frames !== null && answer.frames !== '1' ? `${format} · animated, ${answer.frames} frames` : format;
      page.format.hidden = false;
      void page.image.decode().then(
        () => { page.fullSize.textContent = `Full size, ${page.image.naturalWidth} × ${page.image.naturalHeight}`; },
        () => undefined,
      );
      page.placeholder.hidden = true;
      page.preview.dataset.state = 'ready';
      page.preview.dataset.renders = String(Number(page.preview.dataset.renders ?? '0') + 1);
      page.preview.removeAttribute('aria-busy');
      // `RateLimit-Policy: 60;w=60`: the key's card budget per window of w seconds.
      const policy = /^(\d+);w=(\d+)/.exec(answer.policy ?? '');
      const budget = answer.remaining !== null && policy ? ` · ${answer.remaining} of ${policy[1]} cards left in this ${policy[2]} s window` : '';
      const frames = answer.frames !== null ? ` · ${answer.frames} frame${answer.frames === '1' ? '' : 's'}` : '';
      page.status.replaceChildren(
        element('span', {}, [`${answer.blob.type.replace('image/', '').toUpperCase()} ${kilobytes(answer.blob.size)} in ${answer.ms} ms (${answer.render || 'new'})${frames}${budget}`]),
        element('span', { class: 'alt-text' }, [`Alt text: ${answer.altText}`]),
      );
    },
    onProblem(problem) {
      page.preview.dataset.state = 'error';
      page.preview.removeAttribute('aria-busy');
      // A value imported as the control could not hold it is not on screen: the message names it.
      const unplaced = form.showProblems(problem.details.map((detail) => {
        const field = detail.field.split('.')[0] ?? detail.field;
        return Object.hasOwn(importedExtras, field) ? { ...detail, message: `${detail.message} (imported as ${JSON.stringify(importedExtras[field])})` } : detail;
      }));
      if (page.image.hidden) page.placeholder.textContent = 'No card yet: see the error below.';
      if (problem.status === 401) {
        page.keyError.textContent = problem.message;
        page.keyError.hidden = false;
      }
      const heading = problem.status === 0 ? 'No answer' : `${problem.status} ${problem.code}`;
      page.error.replaceChildren(
        element('strong', {}, [heading]),
        ' ',
        problem.message,
        ...(unplaced.length > 0 ? [element('ul', {}, unplaced.map((detail) => element('li', {}, [`${detail.field}: ${detail.message}`])))] : []),
      );
      page.error.hidden = false;
      page.status.textContent = problem.details.length > 0 ? 'Fix the highlighted fields; the preview updates as you type.' : '';
      if (problem.status === 429) countdown(previewer.blockedUntil);
    },
  });

  const renderSnippet = setupSnippets(currentCall);
  /**
   * The format choice that sends nothing names what the API will send: png, or WebP once animated,
   * marked "(auto)" then so it does not read as a second copy of the webp choice beside it.
   */
  const labelDefaultFormat = () => {
    const label = page.form.querySelector('[data-field="format"] input[value=""] + span');
    const coming = imageTypeFor(form.read().body).slice('image/'.length);
    if (label) label.textContent = coming === documentedFormat ? coming : `${coming} (auto)`;
  };
  const changed = () => {
    labelDefaultFormat();
    renderSnippet();
    // replaceState: each keystroke would otherwise be a step of the Back button.
    const fragment = fragmentFor(form.read(), defaults, mode);
    window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}${fragment}`);
    previewer.schedule();
  };
  page.form.addEventListener('input', () => {
    importedExtras = {};
    page.importNote.hidden = true;
    changed();
  });
  for (const radio of page.modeRadios) {
    radio.addEventListener('change', () => {
      if (!radio.checked) return;
      switchMode(radio.value);
      importedExtras = {};
      page.importNote.hidden = true;
      changed();
    });
  }
  page.reset.addEventListener('click', () => {
    form.reset();
    importedExtras = {};
    page.importNote.hidden = true;
    changed();
  });
  setupImportExport(
    () => form,
    requestBody,
    () => MODES[mode]?.exportName ?? 'card.json',
    (body) => {
      // The mode whose operation documents more of the body's fields; a tie keeps the current one.
      const known = (/** @type {string} */ candidate) => Object.keys(body).filter((name) => Object.hasOwn(operations.cards[candidate]?.bodySchema.properties ?? {}, name)).length;
      const best = Object.keys(MODES).reduce((winner, candidate) => (known(candidate) > known(winner) ? candidate : winner), mode);
      switchMode(best);
    },
    (extras) => {
      importedExtras = extras;
      changed();
    },
  );
  if (operations.templates) setupTemplates(operations.templates, requestBody, () => mode);
  // A link pasted into this tab's address bar changes only the fragment: no reload, so fill it here.
  // (replaceState, which `changed` uses, fires no hashchange.)
  window.addEventListener('hashchange', () => {
    const design = changesFrom(window.location.hash) ?? { parameters: {}, body: {}, mode: DEFAULT_MODE };
    switchMode(design.mode);
    form.fill(design, 'default');
    importedExtras = {};
    page.importNote.hidden = true;
    changed();
  });
  labelDefaultFormat();
  captionDiscordWidth();
  setupKey(() => {
    page.placeholder.textContent = hasCredential() ? 'Drawing…' : waitingText();
    previewer.refresh();
  });
  renderSnippet();
  if (hasCredential()) {
    page.placeholder.textContent = 'Drawing…';
    previewer.refresh(0);
  } else {
    page.placeholder.textContent = waitingText();
  }
}

void main();
