/** Nesting depth of a parsed JSON value (a scalar is 0, `[]` is 1), computed without recursion. */
export function exceedsJsonDepth(value: unknown, maxDepth: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const current = stack.pop() as { value: unknown; depth: number };
    if (current.value === null || typeof current.value !== 'object') continue;
    const depth = current.depth + 1;
    if (depth > maxDepth) return true;
    // Scalars cannot deepen anything: only containers are worth a stack entry (a 10 000-number array stays cheap).
    for (const child of Object.values(current.value)) if (child !== null && typeof child === 'object') stack.push({ value: child, depth });
  }
  return false;
}
