/** BCP 47 shape only (`en`, `es`, `pt-BR`, `zh-Hant-TW`); the runtime then decides if it knows it. */
const LOCALE_SHAPE = /^[a-z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|\d{3}))?$/i;

/**
 * Whether dates can be written in this locale: a well-formed tag whose language this runtime's
 * ICU data has (Node ships full ICU). `xx` or `en-` are refused; `en-ZZ` falls back to `en` and is
 * accepted, as Intl itself does.
 */
export function isSupportedDateLocale(code: string): boolean {
  if (!LOCALE_SHAPE.test(code)) return false;
  try {
    const [canonical] = Intl.getCanonicalLocales(code);
    if (canonical === undefined) return false;
    const language = canonical.split('-')[0] as string;
    return Intl.DateTimeFormat.supportedLocalesOf([language], { localeMatcher: 'lookup' }).length === 1;
  } catch {
    return false;
  }
}
