// Counts the bytes of each event of a `text/event-stream` body as it streams, so a long-lived stream can be
// capped per message instead of as a whole. An event is everything up to the blank line that dispatches it
// (field lines, comments and their line ends); a line ends at CRLF, LF or CR, as the event-stream format says.
// Counting the raw event rather than only its `data` is the stricter bound: nothing an event brings is free.
// Pure: no I/O, no timers.

const LF = 0x0a;
const CR = 0x0d;

export interface EventStreamMeter {
  /** Takes the next chunk; false once the event being read has more than `maxEventBytes` bytes. */
  accept(chunk: Uint8Array): boolean;
}

export function createEventStreamMeter(maxEventBytes: number): EventStreamMeter {
  let eventBytes = 0;
  let lineBytes = 0;
  // A CR ended the last line; a LF right after it belongs to that line end.
  let afterCr = false;

  const endLine = (terminatorBytes: number): void => {
    if (lineBytes === 0) {
      // A blank line: the event is dispatched, the next one starts from nothing.
      eventBytes = 0;
      return;
    }
    lineBytes = 0;
    eventBytes += terminatorBytes;
  };

  return {
    accept(chunk) {
      for (let index = 0; index < chunk.length; index += 1) {
        const byte = chunk[index];
        if (byte === LF) {
          if (afterCr) {
            afterCr = false;
            if (eventBytes > 0) eventBytes += 1;
            continue;
          }
          endLine(1);
        } else if (byte === CR) {
          afterCr = true;
          endLine(1);
        } else {
          afterCr = false;
          lineBytes += 1;
          eventBytes += 1;
        }
        if (eventBytes > maxEventBytes) return false;
      }
      return true;
    },
  };
}
