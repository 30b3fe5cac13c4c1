// Hashing is not I/O: node:crypto's sha256 and HMAC are pure functions of their input, so this stays a pure lib.
import { createHash, createHmac } from 'node:crypto';
import { secretOriginOf } from './secret-origin';
import type { MaterializedText } from './variable-materializer';

/**
 * An unambiguous, prefix-free text encoding of structured data, hashed with sha256. Every token starts with a
 * tag letter; strings and markers carry their length, lists their count. So no two different structures encode
 * alike: shifting text between adjacent fields (`["ab","c"]` vs `["a","bc"]`, or between a key and its value)
 * changes the encoding, and a secret marker can never be forged by literal text of the same spelling.
 *
 * The encoded string is hashed as UTF-16LE code units, which keeps even lone surrogates distinct (UTF-8 would
 * fold them all into U+FFFD, making two different definitions hash alike).
 */
export class CanonicalEncoder {
  private out: string;

  constructor(domain: string) {
    this.out = '';
    this.text(domain);
  }

  /** A field name: fields are written in a fixed order, the name keeps versions of the encoding apart. */
  field(name: string): this {
    this.out += `K${name.length}:${name}`;
    return this;
  }

  text(value: string): this {
    this.out += `S${value.length}:${value}`;
    return this;
  }

  /** A secret's place, named by its source (`var:GITHUB_TOKEN`, `env:API_KEY`, `header:authorization`). */
  marker(source: string): this {
    this.out += `M${source.length}:${source}`;
    return this;
  }

  /**
   * A secret's place and where it points: the marker, then the scheme, host and port of a secret that is a URL
   * or `host:port` (absent otherwise). The credential parts (userinfo, path, query, fragment) are never written.
   */
  secret(source: string, value: string): this {
    this.marker(source);
    const origin = secretOriginOf(value);
    if (origin === null) return this.absent();
    return this.list(3).optionalText(origin.scheme).text(origin.host).optionalText(origin.port);
  }

  absent(): this {
    this.out += 'N';
    return this;
  }

  bool(value: boolean): this {
    this.out += value ? 'T' : 'F';
    return this;
  }

  int(value: number): this {
    this.out += `I${value};`;
    return this;
  }

  list(count: number): this {
    this.out += `L${count}:`;
    return this;
  }

  optionalText(value: string | null | undefined): this {
    return value === null || value === undefined ? this.absent() : this.text(value);
  }

  textList(values: readonly string[] | null | undefined): this {
    if (values === null || values === undefined) return this.absent();
    this.list(values.length);
    for (const value of values) this.text(value);
    return this;
  }

  /**
   * A materialized value as segments: runs of non-secret text (literal text and what non-secret variables
   * produced, merged: what runs is what counts) and one marker per secret stretch. A secret value is never
   * written, so it is never hashed. With `secretOrigins`, each secret stretch is followed by where it points
   * (see {@link secret}): the fingerprint counts it, the security identity does not.
   */
  materialized(value: MaterializedText, options: { readonly secretOrigins?: boolean } = {}): this {
    if (value.stretches.length === 0) {
      this.out += 'X1:';
      return this.text(value.value);
    }
    const segments: { secret: string | null; text: string }[] = [];
    let pending = '';
    let at = 0;
    for (const stretch of value.stretches) {
      if (!stretch.secret) continue;
      pending += value.value.slice(at, stretch.start);
      if (pending) segments.push({ secret: null, text: pending });
      pending = '';
      segments.push({
        secret: `var:${stretch.variable}`,
        text: value.value.slice(stretch.start, stretch.end),
      });
      at = stretch.end;
    }
    pending += value.value.slice(at);
    if (pending) segments.push({ secret: null, text: pending });
    this.out += `X${segments.length}:`;
    for (const segment of segments) {
      if (segment.secret === null) this.text(segment.text);
      else if (options.secretOrigins === true) this.secret(segment.secret, segment.text);
      else this.marker(segment.secret);
    }
    return this;
  }

  /** The encoding so far (for tests and for documents that must show what was hashed). */
  encoded(): string {
    return this.out;
  }

  digest(): string {
    return createHash('sha256').update(this.out, 'utf16le').digest('hex');
  }

  /** HMAC-SHA256 of the encoding under a key (a tenant's fingerprint key): not recomputable without it. */
  keyedDigest(key: Uint8Array): string {
    return createHmac('sha256', key).update(this.out, 'utf16le').digest('hex');
  }
}
