import { setThemeAction } from '../server/actions/theme.actions';
import styles from './shell.module.css';
import { THEME_CHOICES, type ThemeChoice } from './theme';

const LABELS: Readonly<Record<ThemeChoice, string>> = { system: 'System', light: 'Light', dark: 'Dark' };

/** Three buttons in one form (works without JavaScript); the pressed one is the current choice. */
export function ThemeSwitcher({ current }: { current: ThemeChoice }) {
  return (
    <form action={setThemeAction} className={styles.themeSwitcher} aria-label="Theme">
      <span className={styles.themeLabel} id="theme-label">
        Theme
      </span>
      <span role="group" aria-labelledby="theme-label" className={styles.segmented}>
        {THEME_CHOICES.map((choice) => (
          <button
            key={choice}
            type="submit"
            name="theme"
            value={choice}
            aria-pressed={choice === current}
            className={styles.segment}
          >
            {LABELS[choice]}
          </button>
        ))}
      </span>
    </form>
  );
}
