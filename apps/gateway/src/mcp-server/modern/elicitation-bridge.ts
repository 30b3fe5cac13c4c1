import { createHash, randomBytes } from 'node:crypto';
import type { ElicitationRelay } from '@gatehouse/mcp-client';
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type ElicitRequest,
  type InputRequiredResult,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { GatewayCaller } from '../../callers/caller.js';
import { elicitationAnswer } from '../elicitation-answer.js';
import { REQUEST_TIMEOUT } from '../jsonrpc-error-codes.js';
import type { ToolCallChannel, ToolCallHandler, ToolCallParams } from '../tool-call-handler.js';
import { REQUEST_STATE_TTL_SECONDS } from './request-state-codec.js';
import type { SpentRequestStates } from './spent-request-states.js';

// A 2026 client calling a tool on a 2025 upstream that elicits (decision 0144). The 2025 upstream asks in the
// middle of its call, on its own connection; the 2026 client answers only by retrying the call, with a new id, on
// any replica. So the upstream's question ends this round: the call upstream is abandoned, and the client gets an
// `input_required` result asking the same question, with a requestState that carries the call's hash, every
// question asked so far (hashed) and the client's answers. On the retry the call is made again from the start and
// each question the upstream asks again is answered from the state, in order, until it asks one the client has
// not answered yet (another round) or returns its result. A question that differs from the one answered at its
// place drops that answer and the ones after it: an answer is never given to a question it was not for.
//
// The price of serving this on any replica is that the upstream runs the call once per round: what the tool did
// before its question it does again. Rounds are bounded (MAX_ROUNDS), each state is good for one retry (its nonce
// is claimed: a replay is refused), and the client is asked only what it declared it can answer (form-mode
// elicitation in the request's envelope); a client that declared none is served as a 2025 sessionless call is, the
// upstream's question refused without any of its content reaching the client.

const MAX_ROUNDS = 8;
/** The whole state, encoded, stays under this (the client sends it back with each retry). */
const MAX_STATE_BYTES = 64 * 1024;

interface Answered {
  readonly ask: string;
  readonly answer: Readonly<Record<string, unknown>>;
}

export interface BridgeState {
  readonly v: 1;
  /** Single use: claimed on the retry that carries it. */
  readonly nonce: string;
  /** The hash of the tool's name and arguments the rounds are for. */
  readonly call: string;
  readonly answered: readonly Answered[];
  /** The question put to the client in this round: its key in `inputRequests`, and its hash. */
  readonly pending: { readonly key: string; readonly ask: string };
}

export interface ElicitationBridgeOptions {
  readonly codec: RequestStateCodec<BridgeState>;
  readonly spent: SpentRequestStates;
}

function hashOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('base64url');
}

/** Whether the request's own envelope declares form-mode elicitation (an empty `elicitation` object means form). */
export function declaresFormElicitation(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: unknown } | undefined;
  const elicitation = capabilities?.elicitation;
  if (typeof elicitation !== 'object' || elicitation === null) return false;
  const { form, url } = elicitation as { form?: unknown; url?: unknown };
  return form !== undefined || url === undefined;
}

function stateRefused(reason: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', { reason });
}

/** The answers carried by a retry: the state's, plus the client's answer to the state's pending question. */
async function answersOf(
  options: ElicitationBridgeOptions,
  ctx: ServerContext,
  call: string,
): Promise<Answered[]> {
  const state = ctx.mcpReq.requestState<BridgeState>();
  if (state === undefined) return [];
  if (state.v !== 1 || state.call !== call) throw stateRefused('request_state_mismatch');
  if (!(await options.spent.claim(state.nonce, REQUEST_STATE_TTL_SECONDS)))
    throw stateRefused('request_state_replayed');
  const raw = ctx.mcpReq.inputResponses?.[state.pending.key];
  // No answer to the pending question: the upstream will ask it again, and so will we.
  if (raw === undefined) return [...state.answered];
  const answer = elicitationAnswer(raw);
  if (answer instanceof ProtocolError) throw answer;
  return [...state.answered, { ask: state.pending.ask, answer }];
}

export async function callThroughBridge(
  options: ElicitationBridgeOptions,
  callTool: ToolCallHandler,
  caller: GatewayCaller,
  params: ToolCallParams,
  channel: Omit<ToolCallChannel, 'elicit'>,
  ctx: ServerContext,
): Promise<CallToolResult | InputRequiredResult> {
  const call = hashOf([params.name, params.arguments]);
  let answered = await answersOf(options, ctx, call);
  const round = new AbortController();
  let question: { readonly params: Readonly<Record<string, unknown>>; readonly ask: string } | undefined;
  let asked!: () => void;
  const askedNow = new Promise<void>((resolve) => (asked = resolve));
  let index = 0;
  const elicit: ElicitationRelay = (upstreamParams) => {
    const ask = hashOf(upstreamParams);
    const at = index;
    index += 1;
    const known = answered[at];
    if (known?.ask === ask) return Promise.resolve(known.answer);
    answered = answered.slice(0, at);
    question = { params: upstreamParams, ask };
    asked();
    round.abort();
    return Promise.reject(new ProtocolError(REQUEST_TIMEOUT, 'Asked of the client in a new round'));
  };
  const calling = callTool(caller, params, {
    ...channel,
    signal: AbortSignal.any([channel.signal, round.signal]),
    elicit,
  });
  const outcome = await Promise.race([
    calling.then((result) => ({ result }) as const),
    askedNow.then(() => ({ result: undefined }) as const),
  ]);
  if (outcome.result !== undefined) return outcome.result as CallToolResult;
  // This round's call upstream is abandoned: its outcome is nobody's now.
  calling.catch(() => undefined);
  if (question === undefined) throw new ProtocolError(ProtocolErrorCode.InternalError, 'No question to ask');
  if (answered.length >= MAX_ROUNDS)
    throw new ProtocolError(ProtocolErrorCode.InvalidRequest, 'Too many rounds of input', {
      reason: 'too_many_rounds',
      limit: MAX_ROUNDS,
    });
  const key = `elicitation-${answered.length + 1}`;
  const state: BridgeState = {
    v: 1,
    nonce: randomBytes(16).toString('base64url'),
    call,
    answered,
    pending: { key, ask: question.ask },
  };
  const requestState = await options.codec.mint(state, ctx);
  if (requestState.length > MAX_STATE_BYTES)
    throw new ProtocolError(ProtocolErrorCode.InvalidRequest, 'The answers so far are too large to carry', {
      reason: 'request_state_too_large',
      limit: MAX_STATE_BYTES,
    });
  return inputRequired({
    inputRequests: {
      [key]: { method: 'elicitation/create', params: question.params as ElicitRequest['params'] },
    },
    requestState,
  });
}
