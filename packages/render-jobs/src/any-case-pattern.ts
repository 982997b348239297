/**
 * A JSON Schema pattern (ECMA regex, which has no case-insensitive flag in JSON Schema) accepting
 * exactly these values in any letter case: `EST` → `^([Ee][Ss][Tt])$`.
 */
export function anyCasePattern(values: readonly string[], options: { surroundingSpace?: boolean } = {}): string {
  const anyCase = (value: string) =>
    Array.from(value, (character) => {
      const lower = character.toLowerCase();
      const upper = character.toUpperCase();
      if (lower !== upper) return `[${upper}${lower}]`;
      // Only the characters special outside a class; other escapes are errors under the `u` flag validators use.
      return /[\\^$.*+?()[\]{}|]/.test(character) ? `\\${character}` : character;
    }).join('');
  const space = options.surroundingSpace ? '\\s*' : '';
  return `^${space}(${values.map(anyCase).join('|')})${space}$`;
}
