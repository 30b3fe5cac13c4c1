'use client';

import { useEffect } from 'react';

/**
 * Marks the document once React has hydrated (`<html data-hydrated>`). Everything works before that (forms post,
 * lists page with links), but sorting, filtering and dialogs need React: browser tests wait for the marker
 * before using them, so a click never lands on a not-yet-interactive button.
 */
export function HydrationMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return null;
}
