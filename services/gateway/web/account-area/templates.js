// The "Card templates" section: the account's saved designs, through /account/api/templates (the
// same operations, checks and answers as /v1/templates, with the session in place of a key).
import { api, ApiFailure } from './api.js';
import { byId, element } from './dom.js';

/** Field names shown in a row before "+ n more": enough to recognise a design, short enough for a cell. */
const FIELDS_SHOWN = 4;

/** @param {string} iso */
const when = (iso) => iso.slice(0, 16).replace('T', ' ');

/** A starting design per kind, put in the fields box when the kind changes and the box holds the other's. */
const EXAMPLE_FIELDS = {
  profile: { layout: 'welcome', headline: 'Welcome', borderColor: '#5865F2' },
  leaderboard: { title: 'Top chatters', scoreLabel: 'XP', autoColorRank: true },
};

const kindSelect = () => /** @type {HTMLSelectElement} */ (byId('template-kind'));
const fieldsBox = () => /** @type {HTMLTextAreaElement} */ (byId('template-fields'));

/** The box still holds an example (or nothing): the user has typed no design of their own yet. */
function holdsExample() {
  let fields;
  try {
    fields = JSON.parse(fieldsBox().value || '{}');
  } catch {
    return false;
  }
  return Object.keys(fields).length === 0 || Object.values(EXAMPLE_FIELDS).some((example) => JSON.stringify(example) === JSON.stringify(fields));
}

function kindChanged() {
  if (holdsExample()) fieldsBox().value = JSON.stringify(EXAMPLE_FIELDS[/** @type {'profile' | 'leaderboard'} */ (kindSelect().value)]);
}

/** @type {string | undefined} The template the form replaces; undefined while it makes a new one. */
let editing;
/** @type {() => Promise<void>} */
let afterChange = async () => {};

/** @param {Record<string, unknown>} fields */
function summary(fields) {
  // The layout says most about a design: it comes first, with its value; the rest by name, in stored order.
  const names = Object.keys(fields).sort((a, b) => Number(b === 'layout') - Number(a === 'layout'));
  if (names.length === 0) return 'no fields (the default card)';
  const shown = names.slice(0, FIELDS_SHOWN).map((name) => (name === 'layout' ? `layout: ${fields.layout}` : name));
  return names.length > FIELDS_SHOWN ? `${shown.join(', ')} + ${names.length - FIELDS_SHOWN} more` : shown.join(', ');
}

/** @param {string} message */
function showProblem(message) {
  const problem = byId('template-error');
  problem.textContent = message;
  problem.hidden = message === '';
}

function resetForm() {
  editing = undefined;
  /** @type {HTMLFormElement} */ (byId('template-form')).reset();
  byId('save-template').textContent = 'Save template';
  byId('cancel-template-edit').hidden = true;
  showProblem('');
}

function edit(template) {
  editing = template.id;
  /** @type {HTMLInputElement} */ (byId('template-name')).value = template.name;
  kindSelect().value = template.kind;
  fieldsBox().value = JSON.stringify(template.fields, null, 2);
  byId('save-template').textContent = `Replace ${template.id}`;
  byId('cancel-template-edit').hidden = false;
  showProblem('');
  byId('template-name').focus();
}

async function remove(template) {
  if (!confirm(`Delete the template "${template.name}"? Card requests naming ${template.id} are refused from then on.`)) return;
  try {
    await api(`/account/api/templates/${template.id}`, { method: 'DELETE' });
    if (editing === template.id) resetForm();
    await afterChange();
  } catch (error) {
    showProblem(error instanceof Error ? error.message : String(error));
  }
}

/** @param {SubmitEvent} event */
async function save(event) {
  event.preventDefault();
  showProblem('');
  const name = /** @type {HTMLInputElement} */ (byId('template-name')).value.trim();
  const kind = kindSelect().value;
  if (name === '') return showProblem('Give the template a name.');
  let fields;
  try {
    fields = JSON.parse(fieldsBox().value);
  } catch (error) {
    return showProblem(`The fields are not JSON: ${error instanceof Error ? error.message : error}`);
  }
  try {
    // The server judges the fields (the API's own schema): its 400 names the field that is wrong.
    await api(editing ? `/account/api/templates/${editing}` : '/account/api/templates', { method: editing ? 'PUT' : 'POST', body: { name, kind, fields } });
    resetForm();
    await afterChange();
  } catch (error) {
    showProblem(error instanceof ApiFailure ? error.message : String(error));
  }
}

export async function loadTemplates() {
  const { templates, limit } = await api('/account/api/templates');
  byId('templates-count').textContent = `${templates.length} of ${limit} templates (your plan's limit)`;
  byId('no-templates').hidden = templates.length > 0;
  byId('templates-table').querySelector('tbody').replaceChildren(
    ...templates.map((template) =>
      element('tr', { 'data-template': template.id }, [
        element('td', { 'data-label': 'Name' }, [template.name]),
        element('td', { 'data-label': 'Kind' }, [template.kind]),
        element('td', { 'data-label': 'Id' }, [element('code', {}, [template.id])]),
        element('td', { 'data-label': 'Updated' }, [when(template.updatedAt)]),
        element('td', { 'data-label': 'Fields', class: 'fields-summary' }, [summary(template.fields)]),
        element('td', { 'data-label': 'Use it' }, [element('code', {}, [`"template": "${template.id}"`])]),
        element('td', { class: 'actions' }, [
          element('button', { type: 'button', class: 'ghost small', 'data-action': 'edit', onClick: () => edit(template) }, ['Edit']),
          element('button', { type: 'button', class: 'danger small', 'data-action': 'delete', onClick: () => void remove(template) }, ['Delete']),
        ]),
      ])),
  );
}

/** @param {() => Promise<void>} onChange what else to refresh after a change (the activity list) */
export function setUpTemplates(onChange) {
  afterChange = async () => {
    await Promise.all([loadTemplates(), onChange()]);
  };
  byId('template-form').addEventListener('submit', (event) => void save(event));
  byId('cancel-template-edit').addEventListener('click', resetForm);
  kindSelect().addEventListener('change', kindChanged);
}
