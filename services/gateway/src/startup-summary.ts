/**
 * What a person starting the gateway needs to see among the JSON log lines: where it answers, which
 * key to use (or where keys come from), the account area's sign-in link, the docs and the
 * playground. Plain text for a terminal; the same facts are in the log for machines.
 */
export function startupSummary(facts: {
  publicBaseUrl: string;
  generatedKey: string | undefined;
  bootstrapKeys: number;
  managedKeys: number;
  signInLink: { url: string; expiresAt: Date } | undefined;
}): string {
  const base = facts.publicBaseUrl;
  const keys =
    facts.generatedKey !== undefined
      ? `${facts.generatedKey} (made for this run only: set API_KEYS, or make keys in the account area)`
      : `${facts.bootstrapKeys} from API_KEYS, ${facts.managedKeys} made in the account area or with ./run keys`;
  const account =
    facts.signInLink === undefined
      ? `${base}/account (sign in with Discord)`
      : `${facts.signInLink.url} (one-time sign-in link, until ${facts.signInLink.expiresAt.toISOString()}; ./run keys sign-in-link makes another)`;
  return [
    '',
    `Utility API is ready: ${base}`,
    `  Key         ${keys}`,
    `  Account     ${account}`,
    `  Docs        ${base}/docs`,
    `  Playground  ${base}/playground`,
    '',
    '',
  ].join('\n');
}
