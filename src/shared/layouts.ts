export const LAYOUTS = ['redhot', 'greenhorn', 'black-white', 'blue-valvet', 'greyhound', 'pink-pussy'] as const;
export type LayoutName = (typeof LAYOUTS)[number];
export const DEFAULT_LAYOUT: LayoutName = 'redhot';

export function isLayout(value: unknown): value is LayoutName {
  return typeof value === 'string' && (LAYOUTS as readonly string[]).includes(value);
}
