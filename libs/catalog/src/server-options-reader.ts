import { readAllowTools } from './allow-tools-reader';
import { readContentOrigin, type ContentOrigin, type DeclaringPlane } from './content-origin-reader';
import { readElicitation } from './elicitation-reader';
import type { OptionPath, OptionRead, OptionRefusalReason } from './option-refusal';
import { readStartupTimeoutMs } from './startup-timeout-reader';
import { readToolAxes, type ToolAxes } from './tool-axes-reader';
import { readToolFaces, type ToolFaces } from './tool-faces-reader';

/** The per-server options that decide how a server's tools are mounted, whatever its transport. */
export const SERVER_OPTION_NAMES = [
  'allowTools',
  'toolAxes',
  'toolFaces',
  'contentOrigin',
  'startupTimeoutMs',
  'elicitation',
] as const;
export type ServerOptionName = (typeof SERVER_OPTION_NAMES)[number];

/** The options as judged. Absent options stay absent; `elicitation` is always a boolean (default false). */
export interface ServerOptions {
  readonly allowTools?: readonly string[];
  readonly toolAxes?: ToolAxes;
  readonly toolFaces?: ToolFaces;
  readonly contentOrigin?: ContentOrigin;
  readonly startupTimeoutMs?: number;
  readonly elicitation: boolean;
}

export interface ServerOptionRefusal {
  readonly option: ServerOptionName;
  readonly reason: OptionRefusalReason;
  /** Path below the option. */
  readonly path: OptionPath;
}

export type ServerOptionsRead =
  | { readonly ok: true; readonly value: ServerOptions }
  | { readonly ok: false; readonly refusals: readonly ServerOptionRefusal[] };

/**
 * Reads every per-server option of one declaration with its strict reader, and answers all of them at once so a
 * form can show each problem at its field. Any refusal refuses the options (and so the server): nothing
 * unreadable can be approved.
 *
 * @param declared the raw option members (absent members as `undefined`).
 * @param plane `deployment` only for the deployment's own declarations (the managed tier).
 */
export function readServerOptions(
  declared: Readonly<Partial<Record<ServerOptionName, unknown>>>,
  plane: DeclaringPlane,
): ServerOptionsRead {
  const refusals: ServerOptionRefusal[] = [];
  const take = <T>(option: ServerOptionName, read: OptionRead<T>): T | undefined => {
    if (read.ok) return read.value;
    refusals.push({ option, reason: read.reason, path: read.path });
    return undefined;
  };
  const allowTools = take('allowTools', readAllowTools(declared.allowTools));
  const toolAxes = take('toolAxes', readToolAxes(declared.toolAxes));
  const toolFaces = take('toolFaces', readToolFaces(declared.toolFaces));
  const contentOrigin = take('contentOrigin', readContentOrigin(declared.contentOrigin, plane));
  const startupTimeoutMs = take('startupTimeoutMs', readStartupTimeoutMs(declared.startupTimeoutMs));
  const elicitation = take('elicitation', readElicitation(declared.elicitation));
  if (refusals.length > 0) return { ok: false, refusals };
  const value: {
    allowTools?: readonly string[];
    toolAxes?: ToolAxes;
    toolFaces?: ToolFaces;
    contentOrigin?: ContentOrigin;
    startupTimeoutMs?: number;
    elicitation: boolean;
  } = { elicitation: elicitation === true };
  if (allowTools !== undefined) value.allowTools = allowTools;
  if (toolAxes !== undefined) value.toolAxes = toolAxes;
  if (toolFaces !== undefined) value.toolFaces = toolFaces;
  if (contentOrigin !== undefined) value.contentOrigin = contentOrigin;
  if (startupTimeoutMs !== undefined) value.startupTimeoutMs = startupTimeoutMs;
  return { ok: true, value: Object.freeze(value) };
}
