/**
 * A reason `npm start` cannot go on that the user can act on (no Redis, a port taken, a bad variable). The
 * message is printed as one line, without a stack: it is an expected outcome, not a bug.
 */
export class StartFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartFailure';
  }
}
