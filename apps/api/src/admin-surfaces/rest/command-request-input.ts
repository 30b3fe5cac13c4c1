import { longPollOf, type CommandDefinition } from '@gatehouse/commands';
import { ValidationProblemError } from '../../shared/command-problems';
import { WAIT_PARAMETER } from '../../commands/long-poll/wait-query';
import { carriesBody, pathParamsOf } from './command-route-schema';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The raw input of a REST call: path parameters merged with the query string (GET/DELETE) or the JSON body
 * (POST/PATCH/PUT). A field given both in the path and in the body is refused rather than silently picking one,
 * so `PATCH /v1/workspaces/A` with `{"workspaceId":"B"}` can never act on B.
 */
export function commandRequestInput(
  command: CommandDefinition,
  request: { params: unknown; query: unknown; body: unknown },
): Record<string, unknown> {
  const params = isPlainObject(request.params) ? request.params : {};
  const pathInput: Record<string, unknown> = {};
  for (const name of pathParamsOf(command.http.path)) pathInput[name] = params[name];

  const rest = withoutWait(command, carriesBody(command) ? request.body : request.query);
  // No body at all is an empty input; a JSON `null` (or any other non-object) is refused, never read as empty.
  if (rest === undefined) return pathInput;
  if (!isPlainObject(rest)) {
    throw new ValidationProblemError([{ path: '', message: 'Expected a JSON object.' }]);
  }
  const clashes = Object.keys(rest).filter((key) => Object.hasOwn(pathInput, key));
  if (clashes.length > 0) {
    throw new ValidationProblemError(
      clashes.map((key) => ({ path: key, message: 'Given in the path; do not repeat it.' })),
    );
  }
  return { ...rest, ...pathInput };
}

/** A long-poll read's `?wait=` is the surface's, not the command's input (waitSecondsOf reads it). */
function withoutWait(command: CommandDefinition, rest: unknown): unknown {
  if (longPollOf(command) === null || !isPlainObject(rest) || !Object.hasOwn(rest, WAIT_PARAMETER)) return rest;
  const { [WAIT_PARAMETER]: _wait, ...others } = rest;
  return others;
}
