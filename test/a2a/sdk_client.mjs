// A2A client driver for forma's A2A server interop tests.
//
// All protocol code (agent card discovery, transport selection, JSON-RPC, SSE, v0.3 <-> v1.0
// translation) is the official SDK's client (@a2a-js/sdk 1.3.0, spec v1.0: speaking 1.0, or
// 0.3 through its compat layer); this script only decides what to call and prints what came back.
//
// Run:
//   [FORMA_NPM_DIR=<dir>] node test/a2a/sdk_client.mjs <base_url> <scenario> [args...]
//
//   base_url       the agent's base URL; the card is read from
//                  new URL('.well-known/agent-card.json', base_url) (mind the trailing slash
//                  when the agent does not live at the root).
//   FORMA_NPM_DIR  directory holding the package.json / node_modules installed by
//                  tools/bootstrap (the one with @a2a-js/sdk). Default: build/npm of the
//                  repository this script lives in (<script dir>/../../build/npm). Packages
//                  are loaded with createRequire() anchored there.
//   FORMA_SDK_CLIENT_TIMEOUT_MS
//                  give up after this many ms (default 30000): aborts the request / stream
//                  and reports {"error": {"name": "Timeout", ...}} (a stream the server never
//                  closes ends up here).
//   FORMA_SDK_CLIENT_V03_CARD=1
//                  for agents that serve a v0.3 + v1.0 "superset" card (test_agent.mjs):
//                  fetch the card without the A2A-Version header and drop its embedded v1.0
//                  "supportedInterfaces", so that the SDK sees a plain v0.3 card. Without it
//                  the SDK's own discovery is used unchanged (it sends "A2A-Version: 1.0").
//   FORMA_SDK_CLIENT_PROTOCOL=1.0
//                  use the SDK's default client (no legacyCompat: A2A 1.0 only) and require
//                  that it picked JSON-RPC 1.0 (SendMessage, ...). Default: 0.3, as below.
//   FORMA_SDK_CLIENT_TRACE=1
//                  log every HTTP request / response (not SSE bodies) to stderr.
//
// The client is built like this: ClientFactory with only the JSON-RPC transport, both the
// card resolver and the transport factory with legacyCompat enabled for 0.3 (off for 1.0).
// Every scenario but "card" then requires that the SDK picked JSON-RPC of that version
// (message/send or SendMessage, ...) and otherwise reports {"error": {"name": "ProtocolMismatch", ...}}.
//
// Prints exactly one JSON line to stdout and exits 0, also when the SDK threw; then the line
// is {"error": {"name", "message", "code" (the JSON-RPC error code, when the SDK has one),
// "data"?, "cause"?}} plus whatever the scenario had gathered ("events", "first").
// Bad usage: message on stderr, exit 2.
//
// Scenarios:
//   card                       {"card": <card as the SDK read it>, "transport": {"protocolBinding",
//                              "protocolVersion"} (what the SDK selected)}
//   send <text>                {"result": <Message or Task>}
//   stream <text>              {"events": [<StreamResponse>...]} from sendMessageStream
//   get <taskId>               {"result": <Task>}
//   cancel <taskId>            {"result": <Task>}
//   resubscribe <taskId>       {"events": [...]}
//   background <text>          {"result": <Message or Task>}, sent with returnImmediately
//                              (v0.3 wire: configuration.blocking = false)
//   follow_up <text> <answer>  sends <text>, requires a Task in state input-required, sends
//                              <answer> with its taskId and contextId:
//                              {"first": <Task>, "second": <Message or Task>}
//   follow_up_parts <text> <parts>
//                              as follow_up, answering with the parts <parts> gives (a JSON array
//                              of parts in the 1.0 form: [{"text": ...}, {"data": {...}}])
//   stream_cancel <text>       sendMessageStream(<text>); on the first event carrying a task id
//                              (task, status or artifact update) calls cancelTask (without
//                              waiting for it) and reads the stream to its end:
//                              {"events": [...], "cancel": <Task>}
// User messages: role user, a fresh messageId, one text part (v0.3 wire: kind "message",
// parts [{"kind": "text", "text": ...}]).
//
// Objects are printed in the SDK's (v1.0 ProtoJSON) form, via its toJSON(): no "kind";
// empty / default fields are left out; a Message has "messageId" and "role" ("ROLE_USER" /
// "ROLE_AGENT"), a Task has "id" and "status" {"state": "TASK_STATE_COMPLETED", ...};
// parts are {"text"} / {"data"} / {"raw": <base64>} / {"url"} with optional "filename",
// "mediaType", "metadata"; a stream event is {"task"}, {"message"}, {"statusUpdate"} or
// {"artifactUpdate"} (with "append" / "lastChunk" only when true). The v0.3 "final" flag of a
// status update is not kept by the SDK: a stream ends when the server closes it.
import { randomUUID } from 'node:crypto';
import { loadPackage } from '../support/npm_packages.mjs';

const load = (name) => loadPackage(name, 'forma a2a sdk client');
const { A2A_VERSION_HEADER, AgentCard, Message, Part, Role, StreamResponse, Task, TaskState } = load('@a2a-js/sdk');
const { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory } = load('@a2a-js/sdk/client');

const USAGE = 'usage: node sdk_client.mjs <base_url> ' +
  '(card | send <text> | stream <text> | get <taskId> | cancel <taskId> | resubscribe <taskId> | ' +
  'background <text> | follow_up <text> <answer> | follow_up_parts <text> <parts> | stream_cancel <text>)';
const ARITY = { card: 0, send: 1, stream: 1, get: 1, cancel: 1, resubscribe: 1, background: 1,
                follow_up: 2, follow_up_parts: 2, stream_cancel: 1 };

const [baseUrl, scenario, ...args] = process.argv.slice(2);
if (!baseUrl || !(scenario in ARITY) || args.length !== ARITY[scenario]) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const TIMEOUT_MS = Number(process.env.FORMA_SDK_CLIENT_TIMEOUT_MS || 30000);
const TRACE = Boolean(process.env.FORMA_SDK_CLIENT_TRACE);
const V03_CARD = Boolean(process.env.FORMA_SDK_CLIENT_V03_CARD);
const PROTOCOL = process.env.FORMA_SDK_CLIENT_PROTOCOL || '0.3';
if (PROTOCOL !== '0.3' && PROTOCOL !== '1.0') {
  process.stderr.write(`FORMA_SDK_CLIENT_PROTOCOL must be 0.3 or 1.0, not ${PROTOCOL}\n`);
  process.exit(2);
}

// ---- HTTP plumbing handed to the SDK (observation / test_agent card shim only) ---------

const trace = (line) => { if (TRACE) process.stderr.write(`forma a2a sdk client: ${line}\n`); };

async function tracingFetch(url, init = {}) {
  trace(`> ${init.method ?? 'GET'} ${url} ${JSON.stringify(init.headers ?? {})}` +
        (init.body === undefined ? '' : ` ${init.body}`));
  const response = await fetch(url, init);
  const type = response.headers.get('content-type') ?? '';
  let body = '';
  if (TRACE && !type.startsWith('text/event-stream')) body = ` ${await response.clone().text()}`;
  trace(`< ${response.status} ${type}${body}`);
  return response;
}

async function cardFetch(url, init = {}) {
  if (!V03_CARD) return tracingFetch(url, init);
  const headers = Object.fromEntries(Object.entries(init.headers ?? {})
    .filter(([name]) => name.toLowerCase() !== A2A_VERSION_HEADER.toLowerCase()));
  const response = await tracingFetch(url, { ...init, headers });
  if (!response.ok) return response;
  const card = await response.json();
  if (card && typeof card === 'object') delete card.supportedInterfaces;
  return new Response(JSON.stringify(card), { status: response.status,
                                              headers: { 'Content-Type': 'application/json' } });
}

// ---- request builders (v1.0 objects; the SDK translates them to v0.3) ------------------

const userMessage = (text, { taskId = '', contextId = '' } = {}) => ({
  messageId: randomUUID(), contextId, taskId, role: Role.ROLE_USER,
  parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
  metadata: undefined, extensions: [], referenceTaskIds: [],
});
const sendRequest = (message, configuration = undefined) => ({
  tenant: '', message, configuration, metadata: undefined,
});
const taskRequest = (id) => ({ tenant: '', id, metadata: undefined });

// ---- output -----------------------------------------------------------------------------

const isMessage = (r) => r !== null && typeof r === 'object' && 'messageId' in r;
const sendResultJson = (r) => (isMessage(r) ? Message.toJSON(r) : Task.toJSON(r));

function taskIdOf(event) {
  const p = event.payload;
  if (!p) return '';
  if (p.$case === 'task') return p.value.id;
  if (p.$case === 'statusUpdate' || p.$case === 'artifactUpdate') return p.value.taskId;
  return '';
}

function errorJson(e) {
  const out = { name: e?.name ?? 'Error', message: e?.message ?? String(e) };
  const code = e?.envelopeCode ?? e?.cause?.envelopeCode;
  if (code !== undefined) out.code = code;
  if (e?.data !== undefined) out.data = e.data;
  if (e?.cause instanceof Error) out.cause = { name: e.cause.name, message: e.cause.message };
  return out;
}

class ScenarioError extends Error {
  constructor(name, message) {
    super(message);
    this.name = name;
  }
}

// ---- scenarios ----------------------------------------------------------------------------

const abort = new AbortController();
const opts = { signal: abort.signal };
const partial = {};  // what a scenario gathered so far; printed along with an error

async function collect(stream, onEvent = () => {}) {
  partial.events = [];
  for await (const event of stream) {
    partial.events.push(StreamResponse.toJSON(event));
    onEvent(event);
  }
  return partial.events;
}

// Sends <text>, requires a Task waiting for input, then sends answer({taskId, contextId}) in that task.
async function followUp(client, text, answer) {
  const first = await client.sendMessage(sendRequest(userMessage(text)), opts);
  partial.first = sendResultJson(first);
  if (isMessage(first)) throw new ScenarioError('UnexpectedResult', 'expected a Task, got a Message');
  if (first.status?.state !== TaskState.TASK_STATE_INPUT_REQUIRED) {
    throw new ScenarioError('UnexpectedResult',
                            `expected a Task in state input-required, got ${partial.first.status?.state}`);
  }
  const second = await client.sendMessage(sendRequest(answer({ taskId: first.id, contextId: first.contextId })), opts);
  return { first: partial.first, second: sendResultJson(second) };
}

const scenarios = {
  card: async (client) => ({
    card: AgentCard.toJSON(await client.getAgentCard(opts)),
    transport: { protocolBinding: client.transport.protocolName, protocolVersion: client.protocolVersion },
  }),
  send: async (client, text) => ({
    result: sendResultJson(await client.sendMessage(sendRequest(userMessage(text)), opts)),
  }),
  stream: async (client, text) => ({
    events: await collect(client.sendMessageStream(sendRequest(userMessage(text)), opts)),
  }),
  get: async (client, id) => ({
    result: Task.toJSON(await client.getTask({ tenant: '', id }, opts)),
  }),
  cancel: async (client, id) => ({
    result: Task.toJSON(await client.cancelTask(taskRequest(id), opts)),
  }),
  resubscribe: async (client, id) => ({
    events: await collect(client.resubscribeTask({ tenant: '', id }, opts)),
  }),
  background: async (client, text) => {
    const configuration = { acceptedOutputModes: [], taskPushNotificationConfig: undefined,
                            returnImmediately: true };
    return { result: sendResultJson(await client.sendMessage(sendRequest(userMessage(text), configuration),
                                                             opts)) };
  },
  follow_up: async (client, text, answer) => followUp(client, text, (ids) => userMessage(answer, ids)),
  follow_up_parts: async (client, text, parts) => followUp(client, text, (ids) => ({
    ...userMessage('', ids), parts: JSON.parse(parts).map((p) => Part.fromJSON(p)),
  })),
  stream_cancel: async (client, text) => {
    let canceling;
    const events = await collect(client.sendMessageStream(sendRequest(userMessage(text)), opts), (event) => {
      const id = taskIdOf(event);
      if (id && !canceling) {
        canceling = client.cancelTask(taskRequest(id), opts).then((task) => ({ task }), (error) => ({ error }));
      }
    });
    if (!canceling) throw new ScenarioError('UnexpectedResult', 'the stream carried no task id');
    const { task, error } = await canceling;
    if (error) throw error;
    return { events, cancel: Task.toJSON(task) };
  },
};

async function main() {
  const legacyCompat = { enabled: PROTOCOL === '0.3' };
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ legacyCompat, fetchImpl: tracingFetch })],
    cardResolver: new DefaultAgentCardResolver({ legacyCompat, fetchImpl: cardFetch }),
  });
  const client = await factory.createFromUrl(baseUrl);
  if (scenario !== 'card' &&
      (client.transport.protocolName !== 'JSONRPC' || client.protocolVersion !== PROTOCOL)) {
    throw new ScenarioError('ProtocolMismatch',
                            `the SDK selected ${client.transport.protocolName} ${client.protocolVersion}, ` +
                            `not JSONRPC ${PROTOCOL}`);
  }
  return scenarios[scenario](client, ...args);
}

function print(value) {
  process.stdout.write(`${JSON.stringify(value)}\n`, () => process.exit(0));
}

const timer = setTimeout(() => abort.abort(new ScenarioError('Timeout', `no answer within ${TIMEOUT_MS} ms`)),
                         TIMEOUT_MS);
try {
  const out = await main();
  clearTimeout(timer);
  print(out);
} catch (e) {
  clearTimeout(timer);
  const error = abort.signal.aborted && abort.signal.reason instanceof Error ? abort.signal.reason : e;
  print({ error: errorJson(error), ...partial });
}
