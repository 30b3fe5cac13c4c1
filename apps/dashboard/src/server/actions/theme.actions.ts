'use server';

import { cookies } from 'next/headers';
import { THEME_COOKIE, isThemeChoice } from '@/ui/theme';

/** Remembers the theme in a cookie the root layout reads, so the first paint is already in that theme. */
export async function setThemeAction(form: FormData): Promise<void> {
  const choice = form.get('theme');
  if (typeof choice !== 'string' || !isThemeChoice(choice)) return;
  const store = await cookies();
  if (choice === 'system') store.delete(THEME_COOKIE);
  else
    store.set(THEME_COOKIE, choice, { httpOnly: true, sameSite: 'lax', path: '/', maxAge: 400 * 24 * 3600 });
}
