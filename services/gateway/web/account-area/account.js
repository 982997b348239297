import { api, ApiFailure, useCsrfToken } from './api.js';
import { stackedBars } from './chart.js';
import { byId, element } from './dom.js';
import { loadTemplates, setUpTemplates } from './templates.js';

/** What each audit event is called on the page. */
const EVENT_NAMES = {
  signed_in: 'Signed in',
  signed_out: 'Signed out',
  signed_out_everywhere: 'Signed out everywhere',
  sign_in_link_created: 'Sign-in link made',
  key_created: 'Key created',
  key_rolled: 'Key rolled',
  key_revoked: 'Key revoked',
  template_created: 'Template created',
  template_changed: 'Template changed',
  template_deleted: 'Template deleted',
  plan_changed: 'Plan changed',
  account_created: 'Account created',
};
/** Detail fields that are times, shown like every other time on the page. */
const DETAIL_TIMES = new Set(['oldSecretValidUntil']);
const ACTORS = { 'session:discord': 'you (Discord sign-in)', 'session:link': 'you (sign-in link)', cli: 'operator (CLI)', system: 'system' };

const number = new Intl.NumberFormat('en');
/** @param {string | null} iso */
const when = (iso) => (iso ? iso.slice(0, 16).replace('T', ' ') : '—');

/** @param {unknown} error */
function showError(error) {
  const banner = byId('page-error');
  banner.textContent = error instanceof Error ? error.message : String(error);
  banner.hidden = false;
}

/** Shows a key exactly once, with a copy button. */
function revealSecret(title, key, note) {
  byId('secret-title').textContent = title;
  /** @type {HTMLInputElement} */ (byId('secret-value')).value = key;
  byId('secret-note').textContent = note;
  byId('copy-secret').textContent = 'Copy';
  byId('secret').hidden = false;
  byId('secret-value').focus();
}

async function copySecret() {
  const input = /** @type {HTMLInputElement} */ (byId('secret-value'));
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    // No clipboard permission (an http page outside localhost): the old way, from the selection.
    input.select();
    document.execCommand('copy');
  }
  byId('copy-secret').textContent = 'Copied';
}

function hideSecret() {
  /** @type {HTMLInputElement} */ (byId('secret-value')).value = '';
  byId('secret').hidden = true;
}

async function loadKeys() {
  const { keys } = await api('/account/api/keys');
  const body = byId('keys-table').querySelector('tbody');
  body.replaceChildren();
  byId('no-keys').hidden = keys.length > 0;
  for (const key of keys) {
    const revoked = key.revokedAt !== null;
    const status = key.startup
      ? key.startup === 'API_KEYS'
        ? 'start-up key from API_KEYS: change it there'
        : 'start-up key ./run start made for this run: it ends when the gateway stops'
      : revoked
        ? `revoked ${when(key.revokedAt)}`
        : key.previousValidUntil
          ? `rolled; old secret works until ${when(key.previousValidUntil)}`
          : '';
    const actions = revoked || key.startup
      ? []
      : [
          element('button', { type: 'button', class: 'ghost small', 'data-action': 'roll', onClick: () => roll(key) }, ['Roll']),
          element('button', { type: 'button', class: 'danger small', 'data-action': 'revoke', onClick: () => revoke(key) }, ['Revoke']),
        ];
    body.append(
      element('tr', { 'data-key': key.id, 'data-startup': key.startup, class: revoked ? 'revoked' : undefined }, [
        element('td', { 'data-label': 'Name' }, [key.name, status ? element('div', { class: 'hint' }, [status]) : null]),
        element('td', { 'data-label': 'Key' }, [element('code', {}, [key.startup ? key.prefix : `${key.prefix}_…`])]),
        element('td', { 'data-label': 'Scopes' }, [key.scopes.join(', ')]),
        element('td', { 'data-label': 'Created' }, [when(key.createdAt)]),
        element('td', { 'data-label': 'Last used' }, [when(key.lastUsedAt)]),
        element('td', { 'data-label': 'Requests today', class: 'num requests-today' }, [number.format(key.requestsToday)]),
        element('td', { class: 'actions' }, actions),
      ]),
    );
  }
}

async function roll(key) {
  if (!confirm(`Roll "${key.name}"? You get a new secret; the old one keeps working for ${rollGraceHours} hours, then stops.`)) return;
  try {
    const rolled = await api(`/account/api/keys/${key.id}/roll`, { method: 'POST' });
    revealSecret(`New secret for "${key.name}"`, rolled.key, `This is the only time it is shown: copy it now. The old secret works until ${when(rolled.previousValidUntil)} UTC.`);
    await Promise.all([loadKeys(), loadAudit()]);
  } catch (error) {
    showError(error);
  }
}

async function revoke(key) {
  if (!confirm(`Revoke "${key.name}"? Every request with it is refused from now on. This cannot be undone.`)) return;
  try {
    await api(`/account/api/keys/${key.id}/revoke`, { method: 'POST' });
    // A secret still on screen may be this key's: it is worthless now, and must not look usable.
    hideSecret();
    await Promise.all([loadKeys(), loadAudit()]);
  } catch (error) {
    showError(error);
  }
}

/** @param {SubmitEvent} event */
async function createKey(event) {
  event.preventDefault();
  const form = /** @type {HTMLFormElement} */ (event.target);
  const problem = byId('new-key-error');
  problem.hidden = true;
  const name = /** @type {HTMLInputElement} */ (byId('key-name')).value.trim();
  const scopes = [...form.querySelectorAll('input[name="scope"]:checked')].map((input) => /** @type {HTMLInputElement} */ (input).value);
  if (name === '') {
    problem.textContent = 'Give the key a name, such as your bot\'s.';
    problem.hidden = false;
    return;
  }
  if (scopes.length === 0) {
    problem.textContent = 'Choose what the key may call.';
    problem.hidden = false;
    return;
  }
  try {
    const created = await api('/account/api/keys', { method: 'POST', body: { name, scopes } });
    form.reset();
    revealSecret(`Your new key "${created.name}"`, created.key, 'This is the only time the key is shown: copy it now. We keep only a hash of it.');
    await Promise.all([loadKeys(), loadAudit()]);
  } catch (error) {
    problem.textContent = error instanceof ApiFailure ? error.message : String(error);
    problem.hidden = false;
  }
}

function meter(label, quota, resetsAt) {
  // No limit on this plan (the owner's): the count alone, no meter to fill.
  if (quota.limit === null) {
    return element('div', { class: 'quota-row', 'data-quota': label }, [
      element('div', { class: 'quota-label' }, [`${label}: `, element('strong', {}, [number.format(quota.used)]), ' this month (no limit on this plan)']),
    ]);
  }
  const used = Math.min(quota.used, quota.limit);
  return element('div', { class: 'quota-row', 'data-quota': label }, [
    element('div', { class: 'quota-label' }, [`${label}: `, element('strong', {}, [number.format(quota.used)]), ` of ${number.format(quota.limit)} this month`]),
    element('meter', { min: '0', max: String(Math.max(quota.limit, 1)), value: String(used), high: String(quota.limit * 0.8), optimum: '0', 'aria-label': `${label} used this month` }),
    element('div', { class: 'hint' }, [`${number.format(quota.remaining)} left; starts again ${when(resetsAt)} UTC`]),
  ]);
}

function breakdown(tableId, rows) {
  const body = byId(tableId).querySelector('tbody');
  body.replaceChildren(...(rows.length === 0 ? [element('tr', {}, [element('td', { colspan: '4', class: 'hint' }, ['Nothing yet.'])])] : rows));
}

const sum = (values) => values.reduce((total, value) => total + value, 0);

/**
 * Usage is counted by operation id (`createProfileImageForUser`); the page names an endpoint as its
 * reader calls it, `POST /v1/profile-image/{userId}`, read once from the API's own OpenAPI document.
 * A label the document does not know (an endpoint since removed) is shown as counted.
 * @type {Promise<Map<string, string>> | undefined}
 */
let endpointNames;
function loadEndpointNames() {
  endpointNames ??= fetch('/v1/openapi.json')
    .then((response) => (response.ok ? response.json() : { paths: {} }))
    .then((document) => {
      const names = new Map();
      for (const [path, operations] of Object.entries(document.paths ?? {})) {
        for (const [method, operation] of Object.entries(operations ?? {})) {
          if (operation && typeof operation.operationId === 'string') names.set(operation.operationId, `${method.toUpperCase()} ${path}`);
        }
      }
      return names;
    })
    .catch(() => new Map());
  return endpointNames;
}

/**
 * A path that a narrow screen wraps after a slash, never inside a word.
 * @param {string} text
 */
function breakableAtSlashes(text) {
  return text.split('/').flatMap((part, index) => (index === 0 ? [part] : [element('wbr'), `/${part}`]));
}

/**
 * The series under endpoint names; two labels with one name (never today) are added up.
 * @param {Map<string, string>} names @param {Record<string, number[]>} series
 */
function named(names, series) {
  /** @type {Record<string, number[]>} */
  const result = {};
  for (const [label, values] of Object.entries(series)) {
    const name = names.get(label) ?? label;
    const line = result[name];
    result[name] = line ? line.map((value, index) => value + (values[index] ?? 0)) : [...values];
  }
  return result;
}

async function loadUsage() {
  const select = /** @type {HTMLSelectElement} */ (byId('usage-key'));
  const chosen = select.value;
  const [report, names] = await Promise.all([api(`/account/api/usage${chosen ? `?key=${encodeURIComponent(chosen)}` : ''}`), loadEndpointNames()]);
  // The picker lists every key with counts, keeping the current choice.
  select.replaceChildren(element('option', { value: '' }, ['All keys']), ...report.keys.map((key) => element('option', { value: key.keyId }, [`${key.keyId} (${number.format(key.requests)})`])));
  select.value = chosen;

  byId('quota').replaceChildren(
    element('p', { class: 'hint' }, [
      `Plan `,
      element('strong', {}, [report.quota.plan]),
      report.quota.requests.limit === null && report.quota.cards.limit === null ? ' — no monthly quotas; usage is still counted.' : ' — the quota counts every key of the account.',
    ]),
    meter('Requests', report.quota.requests, report.quota.resetsAt),
    meter('Cards', report.quota.cards, report.quota.resetsAt),
  );
  const totals = [
    ['Requests', report.totals.requests, 'requests'],
    ['Cards', report.totals.cards, 'cards'],
    ['Rate-limited (429)', report.totals.rate_limited, 'rate_limited'],
    ['Errors', report.totals.errors, 'errors'],
  ];
  byId('totals').replaceChildren(...totals.map(([label, value, metric]) => element('div', {}, [element('dt', {}, [label]), element('dd', { 'data-metric': metric }, [number.format(value)])])));

  const charts = [
    ['chart-requests', named(names, report.series.requests), 'requests'],
    ['chart-cards', report.series.cards, 'cards'],
    ['chart-problems', { ...prefixed('429 ', named(names, report.series.rate_limited)), ...prefixed('error ', named(names, report.series.errors)) }, 'refused or failed requests'],
  ];
  for (const [id, series, unit] of charts) {
    const figure = byId(id);
    figure.querySelector('.chart-body')?.remove();
    figure.append(stackedBars({ days: report.days, series, unit }));
  }

  const endpoints = new Set([...Object.keys(report.series.requests), ...Object.keys(report.series.rate_limited), ...Object.keys(report.series.errors)]);
  const total = (metric, label) => sum(report.series[metric][label] ?? []);
  breakdown('by-endpoint', [...endpoints].sort((a, b) => total('requests', b) - total('requests', a) || a.localeCompare(b)).map((label) =>
    element('tr', { 'data-endpoint': label }, [
      element('td', {}, [element('code', { class: 'endpoint' }, breakableAtSlashes(names.get(label) ?? label))]),
      element('td', { class: 'num' }, [number.format(total('requests', label))]),
      element('td', { class: 'num' }, [number.format(total('rate_limited', label))]),
      element('td', { class: 'num' }, [number.format(total('errors', label))]),
    ])));
  breakdown('by-format', Object.keys(report.series.cards).sort().map((label) =>
    element('tr', { 'data-format': label }, [element('td', {}, [label]), element('td', { class: 'num' }, [number.format(total('cards', label))])])));
}

/** @param {string} prefix @param {Record<string, number[]>} series */
function prefixed(prefix, series) {
  return Object.fromEntries(Object.entries(series).map(([label, values]) => [`${prefix}${label}`, values]));
}

async function loadAudit() {
  const { events } = await api('/account/api/audit');
  byId('audit-table').querySelector('tbody').replaceChildren(
    ...events.map((event) =>
      element('tr', { 'data-event': event.type }, [
        element('td', { 'data-label': 'When' }, [when(event.at)]),
        element('td', { 'data-label': 'What' }, [EVENT_NAMES[event.type] ?? event.type]),
        element('td', { 'data-label': 'By' }, [ACTORS[event.actor] ?? event.actor]),
        element('td', { 'data-label': 'Details' }, [Object.entries(event.detail).map(([name, value]) => `${name}: ${DETAIL_TIMES.has(name) ? when(value) : value}`).join(', ')]),
      ])),
  );
}

async function signOut(everywhere) {
  if (everywhere && !confirm('Sign out on every browser and device where you are signed in?')) return;
  try {
    const answer = await api(everywhere ? '/account/api/sign-out-everywhere' : '/account/api/sign-out', { method: 'POST' });
    location.replace(answer.location);
  } catch (error) {
    showError(error);
  }
}

let rollGraceHours = 24;

async function main() {
  const me = await api('/account/api/me');
  useCsrfToken(me.csrfToken);
  rollGraceHours = me.keyRollGraceHours;
  byId('who').textContent = `Signed in as ${me.account.name}${me.account.owner ? ' (this server\'s owner)' : ''} · plan ${me.account.plan}`;
  byId('new-key').addEventListener('submit', (event) => void createKey(event));
  byId('copy-secret').addEventListener('click', () => void copySecret());
  byId('hide-secret').addEventListener('click', hideSecret);
  byId('usage-key').addEventListener('change', () => void loadUsage().catch(showError));
  byId('sign-out').addEventListener('click', () => void signOut(false));
  byId('sign-out-everywhere').addEventListener('click', () => void signOut(true));
  setUpTemplates(loadAudit);
  await Promise.all([loadKeys(), loadTemplates(), loadUsage(), loadAudit()]);
  document.body.dataset.ready = 'true';
}

main().catch(showError);
