// Light and dark themes: the operating system's preference (prefers-color-scheme) unless the person picked
// one, remembered in a cookie so the server renders the right theme on the first paint (no flash).

export const THEME_COOKIE = 'gh_theme';
export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

export function isThemeChoice(value: string): value is ThemeChoice {
  return (THEME_CHOICES as readonly string[]).includes(value);
}

/** The cookie's value as a choice; anything else (or nothing) means "follow the system". */
export function themeFromCookie(value: string | undefined): ThemeChoice {
  return value !== undefined && isThemeChoice(value) ? value : 'system';
}
