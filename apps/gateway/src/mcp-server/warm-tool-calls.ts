import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  isJsonContentType,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCResultResponse,
  ProtocolError,
  ProtocolErrorCode,
  SUPPORTED_PROTOCOL_VERSIONS,
  type ClientCapabilities,
} from '@modelcontextprotocol/server';
import type { ElicitationRelay } from '@gatehouse/mcp-client';
import type { GatewayCaller } from '../callers/caller.js';
import { elicitationAnswer, elicitationRefusal } from './elicitation-answer.js';
import { errorOf, isObject, type JsonRpcMessage } from './jsonrpc-answer.js';
import { CONNECTION_CLOSED, REQUEST_TIMEOUT } from './jsonrpc-error-codes.js';
import type { ToolCallChannel, ToolCallHandler } from './tool-call-handler.js';

// The warm-call path of one session (decision 0125): a `tools/call` POST on an open session is answered here,
// without the SDK's Streamable HTTP transport (its Node-to-web conversion, zod over every message and SSE framing
// were about half of the gateway's CPU per call). It takes only what it can serve exactly as the transport would:
// one well-formed JSON-RPC message with the headers the transport requires. Anything else, malformed or unusual
// (a batch, a missing Accept, an unknown protocol version, bad params), goes to the transport, which answers
// it as it always has. The answer is plain JSON unless the call needs to speak before it (progress, an
// elicitation): then, and only from then, the response is an event stream. Its cancellations and the answers to
// its elicitations arrive as POSTs of their own and are taken here too, by the ids only this path handed out.

type RequestId = string | number;

/** A server-to-client request id of this path: never an integer, so never one of the SDK Server's own. */
const ELICIT_ID_PREFIX = 'gatehouse-elicit-';
/** The `_meta` key of a request that belongs to a task (MCP 2025-11-25 tasks). */
const RELATED_TASK = 'io.modelcontextprotocol/related-task';
/** Between keep-alive comments on an event stream: the SDK transport's own default, so both paths keep one pace. */
export const SSE_KEEP_ALIVE_MS = 15_000;
/** As the SDK's own request timeout: a client that never answers an elicitation does not hold the call forever. */
const ELICIT_TIMEOUT_MS = 60_000;

interface PendingAnswer {
  readonly settle: (message: JsonRpcMessage) => void;
}

/** The members the SDK's (strict) JSON-RPC request envelope allows; any other makes it no message to the SDK. */
const REQUEST_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);

function isRequestEnvelope(message: JsonRpcMessage): boolean {
  for (const key in message) if (!REQUEST_MEMBERS.has(key)) return false;
  return true;
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

/** The headers the transport insists on for every POST; a request without them is the transport's to refuse. */
function isPlainPost(request: IncomingMessage): boolean {
  const accept = request.headers.accept;
  if (accept === undefined || !accept.includes('application/json') || !accept.includes('text/event-stream'))
    return false;
  if (!isJsonContentType(request.headers['content-type'])) return false;
  const version = request.headers['mcp-protocol-version'];
  return (
    version === undefined || (typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version))
  );
}

/** One call's HTTP response: JSON when its answer is all there is, an event stream once it must speak first. */
class CallResponse {
  private streaming = false;
  private readonly keepAlive: NodeJS.Timeout | undefined;

  constructor(
    private readonly response: ServerResponse,
    private readonly sessionId: string,
    keepAliveMs: number,
  ) {
    // As the transport's event stream: a comment every interval, so a proxy's idle timeout does not cut a long
    // call. A call still running after one interval is answered as an event stream from then on.
    if (keepAliveMs > 0) {
      this.keepAlive = setInterval(() => {
        if (!this.open) {
          this.stopKeepAlive();
          return;
        }
        this.stream();
        this.response.write(': keepalive\n\n');
      }, keepAliveMs);
      this.keepAlive.unref();
      response.once('close', () => this.stopKeepAlive());
    }
  }

  get open(): boolean {
    return !this.response.writableEnded && !this.response.destroyed;
  }

  /** A message before the answer (progress, an elicitation): the response becomes an event stream. */
  send(message: JsonRpcMessage): void {
    if (!this.open) return;
    this.stream();
    this.response.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  answer(message: JsonRpcMessage): void {
    this.stopKeepAlive();
    if (!this.open) return;
    if (this.streaming) {
      this.response.end(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
      return;
    }
    this.response
      .writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': this.sessionId })
      .end(JSON.stringify(message));
  }

  /** A cancelled call is not answered (the protocol's rule): its stream just ends. */
  end(): void {
    this.stopKeepAlive();
    if (!this.open) return;
    this.stream();
    this.response.end();
  }

  private stopKeepAlive(): void {
    if (this.keepAlive !== undefined) clearInterval(this.keepAlive);
  }

  private stream(): void {
    if (this.streaming) return;
    this.streaming = true;
    // The transport's own event-stream headers: no-transform and no X-Accel buffering keep a proxy from holding
    // the stream's progress back until it ends.
    this.response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'mcp-session-id': this.sessionId,
    });
  }
}

export class WarmToolCalls {
  /** This path's calls in flight, by the client's request id (its cancellations name them). */
  private readonly calls = new Map<RequestId, AbortController>();
  /** Elicitations this path sent, by id, waiting for the client's answer. */
  private readonly answers = new Map<string, PendingAnswer>();
  private nextElicitation = 0;

  constructor(
    private readonly sessionId: string,
    private readonly callTool: ToolCallHandler,
    /** What the session's client declared at initialize (undefined before). */
    private readonly clientCapabilities: () => ClientCapabilities | undefined,
    /** Between keep-alive comments on a call's response (the transport's own default). */
    private readonly keepAliveMs: number = SSE_KEEP_ALIVE_MS,
  ) {}

  /** Serves the POST when it is this path's; false: the session's transport serves it, untouched. */
  serve(request: IncomingMessage, response: ServerResponse, body: unknown, caller: GatewayCaller): boolean {
    if (request.method !== 'POST' || !isObject(body) || body.jsonrpc !== '2.0' || !isPlainPost(request))
      return false;
    const { method, id, params } = body;
    if (method === 'tools/call')
      return isRequestId(id) && isRequestEnvelope(body) && this.call(request, response, caller, id, params);
    if (method === 'notifications/cancelled') return this.cancel(response, body);
    if (method === undefined) return this.answered(response, body);
    return false;
  }

  /** The session is closing: its calls are abandoned, its elicitations refused. */
  abortAll(): void {
    for (const controller of this.calls.values()) controller.abort();
    this.calls.clear();
    for (const [id, pending] of this.answers)
      pending.settle({
        jsonrpc: '2.0',
        id,
        error: { code: CONNECTION_CLOSED, message: 'Session closed' },
      });
  }

  private call(
    request: IncomingMessage,
    response: ServerResponse,
    caller: GatewayCaller,
    id: RequestId,
    params: unknown,
  ): boolean {
    // The SDK's CallToolRequestSchema, field by field; anything it would judge otherwise goes to it to judge: a
    // task-augmented call (the gateway declares no tasks) and a related-task `_meta` among them.
    if (!isObject(params) || typeof params.name !== 'string' || 'task' in params) return false;
    const args = params.arguments;
    if (args !== undefined && !isObject(args)) return false;
    const meta = params._meta;
    if (meta !== undefined && (!isObject(meta) || RELATED_TASK in meta)) return false;
    const progressToken = meta?.progressToken;
    if (progressToken !== undefined && !isRequestId(progressToken)) return false;

    const controller = new AbortController();
    this.calls.set(id, controller);
    const reply = new CallResponse(response, this.sessionId, this.keepAliveMs);
    // The client went away: the call is abandoned (upstream cancellation is the supervisor's).
    response.once('close', () => {
      if (!response.writableFinished) controller.abort();
    });
    const elicit = this.elicitationRelay(reply);
    const channel: ToolCallChannel = {
      signal: controller.signal,
      requestHeaders: request.headers,
      sessionId: this.sessionId,
      ...(elicit === undefined ? {} : { elicit }),
      ...(progressToken === undefined
        ? {}
        : {
            sendProgress: async (progress) =>
              reply.send({
                jsonrpc: '2.0',
                method: 'notifications/progress',
                params: { progressToken, ...progress },
              }),
          }),
    };
    this.callTool(caller, { name: params.name, arguments: args ?? {} }, channel).then(
      (result) => this.finish(id, controller, reply, { jsonrpc: '2.0', id, result }),
      (error: unknown) => this.finish(id, controller, reply, { jsonrpc: '2.0', id, error: errorOf(error) }),
    );
    return true;
  }

  private finish(
    id: RequestId,
    controller: AbortController,
    reply: CallResponse,
    message: JsonRpcMessage,
  ): void {
    if (this.calls.get(id) === controller) this.calls.delete(id);
    if (controller.signal.aborted) reply.end();
    else reply.answer(message);
  }

  /** A cancellation of one of this path's calls; another's (or an unknown id's) is the transport's. */
  private cancel(response: ServerResponse, message: JsonRpcMessage): boolean {
    const { params } = message;
    if (!isObject(params) || !isRequestId(params.requestId)) return false;
    // A reason that is not a string fails the SDK's CancelledNotificationSchema: its Protocol would cancel nothing.
    if (params.reason !== undefined && typeof params.reason !== 'string') return false;
    const controller = this.calls.get(params.requestId);
    // One of ours: judged by the SDK's own (strict) envelope, as the transport would judge it.
    if (controller === undefined || !isJSONRPCNotification(message)) return false;
    this.calls.delete(params.requestId);
    controller.abort();
    response.writeHead(202, { 'mcp-session-id': this.sessionId }).end();
    return true;
  }

  /** The client's answer to one of this path's elicitations; any other answer is the transport's. */
  private answered(response: ServerResponse, message: JsonRpcMessage): boolean {
    const { id } = message;
    if (typeof id !== 'string' || !('result' in message || 'error' in message)) return false;
    const pending = this.answers.get(id);
    if (pending === undefined) return false;
    // An answer to one of ours, judged by the SDK's own (strict) envelopes: a malformed one is the transport's 400.
    if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) return false;
    pending.settle(message);
    response.writeHead(202, { 'mcp-session-id': this.sessionId }).end();
    return true;
  }

  /** Form-mode elicitation during a call, when the session's client declared it (decision 0107). */
  private elicitationRelay(reply: CallResponse): ElicitationRelay | undefined {
    const elicits = this.clientCapabilities()?.elicitation;
    if (elicits === undefined || (elicits.form === undefined && elicits.url !== undefined)) return undefined;
    return (params, signal) =>
      new Promise((resolve, reject) => {
        if (!reply.open) {
          reject(new ProtocolError(CONNECTION_CLOSED, "The call's client is gone"));
          return;
        }
        // Given up before it was asked (an abort listener would never fire): not asked at all, as the SDK's.
        if (signal.aborted) {
          reject(new ProtocolError(REQUEST_TIMEOUT, 'Elicitation abandoned'));
          return;
        }
        const id = `${ELICIT_ID_PREFIX}${++this.nextElicitation}`;
        const settle = (message: JsonRpcMessage) => {
          this.answers.delete(id);
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          if (isObject(message.error)) {
            const { code, message: text, data } = message.error;
            reject(
              elicitationRefusal(
                new ProtocolError(
                  typeof code === 'number' ? code : ProtocolErrorCode.InternalError,
                  typeof text === 'string' ? text.slice(0, 1_024) : 'Elicitation failed',
                  data,
                ),
              ),
            );
            return;
          }
          // Rebuilt from action and content only, content within the argument bounds (elicitation-answer).
          const answer = elicitationAnswer(message.result);
          if (answer instanceof ProtocolError) reject(answer);
          else resolve(answer);
        };
        // Given up (the upstream cancelled it, or no answer in time): the client is told, as the SDK's Protocol
        // tells it, so it drops its prompt; an answer after this is nobody's.
        const abandon = (reason: string) => {
          reply.send({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: id, reason },
          });
          settle({ id, error: { code: REQUEST_TIMEOUT, message: 'Elicitation abandoned' } });
        };
        const onAbort = () => abandon('The server no longer needs the answer');
        const timer = setTimeout(() => abandon('Request timed out'), ELICIT_TIMEOUT_MS);
        timer.unref();
        signal.addEventListener('abort', onAbort, { once: true });
        this.answers.set(id, { settle });
        reply.send({ jsonrpc: '2.0', id, method: 'elicitation/create', params });
      });
  }
}
