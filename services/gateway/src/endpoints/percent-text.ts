/** `<n>%` with at most two decimals and no trailing zeros: 50 -> "50%", 33.333 -> "33.33%". */
export function percentText(value: number): string {
  return `${Number(value.toFixed(2))}%`;
}
