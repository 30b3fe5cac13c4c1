/**
 * Thrown while building an app when a safety check refuses the configuration it was given (e.g. the database
 * role may bypass row-level security). The app's main prints the message as one line and exits 1.
 */
export class BootRefusedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message.replace(/\s+/g, ' ').trim(), options);
    this.name = 'BootRefusedError';
  }
}
