/**
 * What a read's use case may return instead of its bare output when it can name the version of its answer
 * before building it: the entity tag, computed from everything the output is a function of (row versions, the
 * decisions it re-made), with the output, or without it when the client already holds that tag. A hit then costs
 * the version read alone, not the build, the output parse and the hash of a large body (the catalog lease,
 * decision 0075). Equal tags must still mean equal bodies: the tag covers every input of a deterministic build.
 */
export class TaggedRead {
  private constructor(
    readonly tag: string,
    /** Undefined when the client already holds `tag` (answered 304, nothing built). */
    readonly output: unknown,
  ) {}

  /** The output built for this version. */
  static of(tag: string, output: unknown): TaggedRead {
    return new TaggedRead(tag, output);
  }

  /** The client already holds this version: nothing is built. Only when `clientHasTag(tag)` said so. */
  static unchanged(tag: string): TaggedRead {
    return new TaggedRead(tag, undefined);
  }

  get built(): boolean {
    return this.output !== undefined;
  }
}

/** The runner's answer to the surface: the parsed output, and the use case's own tag if it gave one. */
export interface CommandResult {
  /** Undefined only for an unchanged TaggedRead (the surface answers 304). */
  readonly output: unknown;
  readonly tag: string | null;
}
