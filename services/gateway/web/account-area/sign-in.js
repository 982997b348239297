import { api } from './api.js';
import { byId } from './dom.js';

/** What a failed sign-in says, by the code the server put in `?error=`. */
const MESSAGES = {
  denied: 'You cancelled the sign-in at Discord. Nothing was shared; you can try again.',
  state: 'This sign-in attempt expired or was started in another browser. Please start again.',
  code: 'Discord did not accept this sign-in (it may have been used already). Please start again.',
  discord_unavailable: 'Discord could not be reached just now. Please try again in a moment.',
  discord_off: 'Sign in with Discord is not set up on this server.',
  too_many: 'Too many failed sign-in attempts from your network. Wait a minute, then try again.',
  session_ended: 'Your session ended. Please sign in again.',
};

const status = byId('status');

/**
 * @param {string} text
 * @param {'error' | 'info'} kind
 */
function show(text, kind) {
  status.textContent = text;
  status.className = `banner ${kind === 'error' ? 'error-text' : 'info-text'}`;
  status.hidden = false;
}

async function redeem(token) {
  show('Signing you in…', 'info');
  try {
    const answer = await api('/account/api/sign-in/link', { method: 'POST', body: { token } });
    location.replace(answer.location);
  } catch (error) {
    show(error instanceof Error ? error.message : String(error), 'error');
  }
}

async function main() {
  // The token travels in the fragment, which the browser never sends anywhere; it is removed from
  // the address bar and history at once, so neither a screenshot nor the back button shows it.
  const fragment = new URLSearchParams(location.hash.slice(1));
  const token = fragment.get('token');
  const error = new URLSearchParams(location.search).get('error');
  if (token !== null || location.hash !== '') history.replaceState(null, '', location.pathname + location.search);
  if (error !== null) show(MESSAGES[error] ?? 'The sign-in did not work. Please try again.', 'error');

  const options = await api('/account/api/sign-in-options').catch(() => ({ discord: false, signedIn: false }));
  byId('discord').hidden = !options.discord;
  byId('discord-note').hidden = !options.discord;
  byId('link-note').hidden = options.discord;
  if (token !== null) await redeem(token);
  else if (options.signedIn && error === null) location.replace('/account');
}

void main();
