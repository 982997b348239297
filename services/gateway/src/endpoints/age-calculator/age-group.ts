/** Age groups by completed years; each label covers its `from` up to the next group's `from`. */
export const AGE_GROUPS = [
  { from: 0, label: 'Infant' },
  { from: 1, label: 'Toddler' },
  { from: 4, label: 'Child' },
  { from: 13, label: 'Teenager' },
  { from: 18, label: 'Young Adult' },
  { from: 25, label: 'Adult' },
  { from: 45, label: 'Middle-aged Adult' },
  { from: 65, label: 'Senior' },
] as const;

export type AgeGroup = (typeof AGE_GROUPS)[number]['label'];

export function ageGroup(years: number): AgeGroup {
  let label: AgeGroup = AGE_GROUPS[0].label;
  for (const group of AGE_GROUPS) if (years >= group.from) label = group.label;
  return label;
}

export function describeAgeGroups(): string {
  return AGE_GROUPS.map((group, index) => {
    const next = AGE_GROUPS[index + 1];
    return next ? `${group.from}-${next.from - 1} \`${group.label}\`` : `${group.from}+ \`${group.label}\``;
  }).join(', ');
}
