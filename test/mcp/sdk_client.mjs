// MCP client driver for forma's MCP server interop tests.
//
// All protocol code (initialize / version negotiation, JSON-RPC, progress, cancellation,
// output-schema validation, stdio framing, Streamable HTTP with its SSE streams and session
// header) is the official SDK's client (@modelcontextprotocol/sdk, the version installed with
// @modelcontextprotocol/server-everything; 1.32.2 when this was written); this script only
// decides what to call and prints what came back.
//
// Run:
//   [FORMA_NPM_DIR=<dir>] node test/mcp/sdk_client.mjs stdio <command> [args...] -- <scenario> [args...]
//   [FORMA_NPM_DIR=<dir>] node test/mcp/sdk_client.mjs http <url> <scenario> [args...]
//
//   stdio          spawns <command> [args...] with StdioClientTransport (stderr inherited; the
//                  server gets this process's whole environment, not the SDK's short default
//                  list). The last "--" separates the server's command line from the scenario.
//                  Closing ends the server's stdin, then SIGTERM after 2 s, SIGKILL after 2 more.
//   http           StreamableHTTPClientTransport to <url> (the MCP endpoint itself, e.g.
//                  http://127.0.0.1:8080/mcp).
//   FORMA_NPM_DIR  directory holding the package.json / node_modules installed by
//                  tools/bootstrap (the one with @modelcontextprotocol/server-everything and
//                  with it @modelcontextprotocol/sdk). Default: build/npm of the repository this
//                  script lives in (<script dir>/../../build/npm). Packages are loaded with
//                  createRequire() anchored there.
//   FORMA_SDK_CLIENT_TIMEOUT_MS
//                  timeout of every request, initialize included (default 30000; the SDK then
//                  sends notifications/cancelled and throws McpError -32001 "Request timed
//                  out"). The whole run (spawn, connect, scenario) is watched too: after this
//                  many ms + 5000 it reports {"error": {"name": "Timeout", ...}}, closes the
//                  client and exits 0.
//   FORMA_SDK_CLIENT_TERMINATE_SESSION=1
//                  http only: before closing, end the session with the SDK's
//                  transport.terminateSession() (HTTP DELETE with Mcp-Session-Id; a 405 counts
//                  as done) and add {"terminated": true} or {"terminated": {"error": ...}}.
//                  Without it nothing is sent on close: the SDK's close() only aborts its
//                  open requests / streams.
//   FORMA_SDK_CLIENT_TRACE=1
//                  log every JSON-RPC message sent / received and, for http, every HTTP
//                  request (method, URL, headers) and response (status, content type) to
//                  stderr.
//
// Prints exactly one JSON line to stdout and exits 0, also when the SDK threw; then the line
// is {"error": {"name", "message", "code" (the JSON-RPC error code of an McpError),
// "data"?, "httpStatus"? (a StreamableHTTPError's status), "cause"?}} plus whatever the
// scenario had gathered. Errors the SDK reports on the side (client.onerror: a failed GET
// stream, an unexpected message, ...) go to stderr only. Bad usage: message on stderr, exit 2.
//
// The client: new Client({name: "forma-sdk-client", version: <SDK version>}) with no
// capabilities; it offers protocol version 2025-11-25 (the SDK's latest) and accepts any of
// 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07 in the answer.
//
// Scenarios (<argumentsJSON> is a JSON object, the tool's "arguments"):
//   info                 {"server": <serverInfo>, "capabilities": <server capabilities>,
//                        "protocolVersion": <version the server answered with>,
//                        "instructions": <instructions or absent>, "sessionId": <http only>}
//   list                 {"tools": [<every tool of every page>], "pages": <number of tools/list
//                        calls>}, following nextCursor by hand (client.listTools({cursor}));
//                        a cursor seen twice or more than 1000 pages is an error
//   call <name> <argumentsJSON>
//                        {"result": <CallToolResult as the SDK returned it>}; no tools/list
//                        before, so no output-schema validation
//   call_unknown         calls "no_such_tool" with {}: {"error": {...}} when the server answered
//                        with a JSON-RPC error (McpError code in "code"), {"result": ...} when it
//                        answered with a result (e.g. isError: true)
//   progress <name> <argumentsJSON>
//                        callTool with onprogress (the SDK adds _meta.progressToken = the request
//                        id): {"result": ..., "progress": [<params of each
//                        notifications/progress as onprogress got them: the SDK drops
//                        progressToken>]}
//   cancel <name> <argumentsJSON> <afterMs> [<echoArgumentsJSON>]
//                        callTool with an AbortController's signal, abort() after <afterMs> ms
//                        (the SDK sends notifications/cancelled {requestId, reason} and rejects
//                        with McpError -32001 "AbortError: This operation was aborted"):
//                        {"aborted": <the call ended by the abort>, "error": {name, message,
//                        code} or "result": <when it finished first>, "cancelled": <params of
//                        the notifications/cancelled the SDK sent, or null>, "ping_after": true
//                        or {"error": ...}, "after": <callTool("echo", <echoArgumentsJSON>,
//                        default {"text": "still here"}) result> or {"error": ...}}
//   structured <name> <argumentsJSON>
//                        calls tools/list (page by page, stopping at the page listing <name>:
//                        the SDK keeps the output schemas of the last page only) so that
//                        callTool validates structuredContent against the listed outputSchema
//                        (a missing or invalid structuredContent is thrown as McpError -32600 /
//                        -32602): {"result": ..., "outputSchema": <as listed, or null>,
//                        "validated": <the SDK had a validator for <name>>}
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadPackage, resolvePackage } from '../support/npm_packages.mjs';

const load = (name) => loadPackage(name, 'forma mcp sdk client');
const { Client } = load('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = load('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport, StreamableHTTPError } = load('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { McpError } = load('@modelcontextprotocol/sdk/types.js');
const SDK_VERSION = sdkVersion();

// The SDK's exports map "./package.json" to dist/cjs/package.json ({"type": "commonjs"}): walk
// up from the loaded client to the package's own package.json instead.
function sdkVersion() {
  for (let dir = path.dirname(resolvePackage('@modelcontextprotocol/sdk/client/index.js'));
       dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
      if (manifest.name === '@modelcontextprotocol/sdk') return manifest.version;
    } catch {
      // no package.json here: go on up
    }
  }
  return 'unknown';
}

// ---- command line ---------------------------------------------------------------------------

const USAGE = 'usage: node sdk_client.mjs (stdio <command> [args...] -- | http <url>) ' +
  '(info | list | call <name> <argumentsJSON> | call_unknown | progress <name> <argumentsJSON> | ' +
  'cancel <name> <argumentsJSON> <afterMs> [<echoArgumentsJSON>] | structured <name> <argumentsJSON>)';
const ARITY = { info: [0, 0], list: [0, 0], call: [2, 2], call_unknown: [0, 0], progress: [2, 2],
                cancel: [3, 4], structured: [2, 2] };

function usage(problem) {
  process.stderr.write(`forma mcp sdk client: ${problem}\n${USAGE}\n`);
  process.exit(2);
}

function parseCommandLine(argv) {
  const [mode, ...rest] = argv;
  let target;
  let scenarioArgs;
  if (mode === 'stdio') {
    const separator = rest.lastIndexOf('--');
    if (separator < 1) usage('stdio needs <command> [args...] -- <scenario>');
    target = { command: rest[0], args: rest.slice(1, separator) };
    scenarioArgs = rest.slice(separator + 1);
  } else if (mode === 'http') {
    if (rest.length < 1) usage('http needs <url>');
    try {
      target = { url: new URL(rest[0]) };
    } catch {
      usage(`not a URL: ${rest[0]}`);
    }
    scenarioArgs = rest.slice(1);
  } else {
    usage(`unknown transport: ${mode ?? '(none)'}`);
  }
  const [scenario, ...args] = scenarioArgs;
  if (!(scenario in ARITY)) usage(`unknown scenario: ${scenario ?? '(none)'}`);
  const [least, most] = ARITY[scenario];
  if (args.length < least || args.length > most) usage(`wrong number of arguments for ${scenario}`);
  return { mode, target, scenario, args };
}

const { mode, target, scenario, args } = parseCommandLine(process.argv.slice(2));

function jsonObjectArg(text, what) {
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    usage(`${what} is not JSON: ${e.message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) usage(`${what} is not a JSON object`);
  return value;
}
// Checked before anything starts, so that bad usage never spawns / connects.
const toolArgs = ['call', 'progress', 'cancel', 'structured'].includes(scenario)
  ? jsonObjectArg(args[1], '<argumentsJSON>') : undefined;
const afterMs = scenario === 'cancel' ? Number(args[2]) : undefined;
if (afterMs !== undefined && !(Number.isFinite(afterMs) && afterMs >= 0)) usage('<afterMs> is not a number >= 0');
const echoArgs = scenario === 'cancel'
  ? (args[3] === undefined ? { text: 'still here' } : jsonObjectArg(args[3], '<echoArgumentsJSON>')) : undefined;

const TIMEOUT_MS = Number(process.env.FORMA_SDK_CLIENT_TIMEOUT_MS || 30000);
const WATCHDOG_MS = TIMEOUT_MS + 5000;
const TRACE = Boolean(process.env.FORMA_SDK_CLIENT_TRACE);
const TERMINATE_SESSION = Boolean(process.env.FORMA_SDK_CLIENT_TERMINATE_SESSION);

// ---- observation (trace, sent messages, negotiated version) ----------------------------------

const trace = (line) => { if (TRACE) process.stderr.write(`forma mcp sdk client: ${line}\n`); };
let closing = false;

async function tracingFetch(url, init = {}) {
  if (TRACE) {
    const headers = Object.fromEntries(new Headers(init.headers ?? {}).entries());
    trace(`> ${init.method ?? 'GET'} ${url} ${JSON.stringify(headers)}`);
  }
  const response = await fetch(url, init);
  trace(`< ${response.status} ${response.headers.get('content-type') ?? ''}` +
        (response.headers.get('mcp-session-id') ? ` mcp-session-id: ${response.headers.get('mcp-session-id')}` : ''));
  return response;
}

const sent = [];          // every JSON-RPC message the SDK handed to the transport
let initializeAnswer;     // the result of initialize, as the server sent it

// Wraps send() and sets onmessage before client.connect(): Protocol.connect() keeps an
// onmessage that is already set and calls it before its own handling.
// close() is made idempotent: when initialize fails, Client.connect() starts a close() of its
// own without awaiting it; a second close() of the stdio transport would return at once while
// the first still waits for the server to exit, and this process would exit before it.
function observe(transport) {
  const close = transport.close.bind(transport);
  let closed;
  transport.close = () => (closed ??= close());
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push(message);
    trace(`-> ${JSON.stringify(message)}`);
    return send(message, options);
  };
  transport.onmessage = (message) => {
    trace(`<- ${JSON.stringify(message)}`);
    const request = sent.find((m) => m.method === 'initialize');
    if (request && message.id === request.id && message.result) initializeAnswer = message.result;
  };
  return transport;
}

// ---- output -----------------------------------------------------------------------------------

function errorJson(e) {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e) };
  const out = { name: e.name, message: e.message };
  if (e instanceof McpError) {
    out.code = e.code;
    if (e.data !== undefined) out.data = e.data;
  } else if (e instanceof StreamableHTTPError) {
    out.httpStatus = e.code;
  }
  if (e.cause !== undefined) {
    out.cause = e.cause instanceof Error
      ? { name: e.cause.name, message: e.cause.message, ...(e.cause.code !== undefined && { code: e.cause.code }) }
      : e.cause;
  }
  return out;
}

class ScenarioError extends Error {
  constructor(name, message) {
    super(message);
    this.name = name;
  }
}

const settle = (promise) => promise.then((value) => ({ value }), (error) => ({ error }));

// ---- scenarios ------------------------------------------------------------------------------

const partial = {};  // what a scenario gathered so far; printed along with an error
const opts = (extra = {}) => ({ timeout: TIMEOUT_MS, ...extra });

async function listPages(client, stopAt = undefined) {
  partial.tools = [];
  partial.pages = 0;
  const seen = new Set();
  let cursor;
  for (;;) {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor }, opts());
    partial.pages += 1;
    partial.tools.push(...page.tools);
    if (stopAt !== undefined && page.tools.some((tool) => tool.name === stopAt)) break;
    cursor = page.nextCursor;
    if (cursor === undefined) break;
    if (seen.has(cursor)) throw new ScenarioError('CursorLoop', `tools/list returned the cursor ${JSON.stringify(cursor)} twice`);
    if (partial.pages >= 1000) throw new ScenarioError('TooManyPages', 'tools/list gave more than 1000 pages');
    seen.add(cursor);
  }
  return { tools: partial.tools, pages: partial.pages };
}

const scenarios = {
  info: async (client, transport) => ({
    server: client.getServerVersion(),
    capabilities: client.getServerCapabilities(),
    protocolVersion: transport.protocolVersion ?? initializeAnswer?.protocolVersion,
    instructions: client.getInstructions(),
    ...(transport.sessionId !== undefined && { sessionId: transport.sessionId }),
  }),

  list: async (client) => listPages(client),

  call: async (client, _transport, name) => ({
    result: await client.callTool({ name, arguments: toolArgs }, undefined, opts()),
  }),

  call_unknown: async (client) => ({
    result: await client.callTool({ name: 'no_such_tool', arguments: {} }, undefined, opts()),
  }),

  progress: async (client, _transport, name) => {
    partial.progress = [];
    const result = await client.callTool({ name, arguments: toolArgs }, undefined,
                                         opts({ onprogress: (params) => partial.progress.push(params) }));
    return { result, progress: partial.progress };
  },

  cancel: async (client, _transport, name) => {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), afterMs);
    const call = await settle(client.callTool({ name, arguments: toolArgs }, undefined, opts({ signal: abort.signal })));
    clearTimeout(timer);
    const out = partial;
    out.aborted = abort.signal.aborted && call.error !== undefined;
    if (call.error !== undefined) out.error = errorJson(call.error);
    else out.result = call.value;
    out.cancelled = sent.find((m) => m.method === 'notifications/cancelled')?.params ?? null;
    const ping = await settle(client.ping(opts()));
    out.ping_after = ping.error === undefined ? true : { error: errorJson(ping.error) };
    const echo = await settle(client.callTool({ name: 'echo', arguments: echoArgs }, undefined, opts()));
    out.after = echo.error === undefined ? echo.value : { error: errorJson(echo.error) };
    return out;
  },

  structured: async (client, _transport, name) => {
    const { tools } = await listPages(client, name);
    const tool = tools.find((t) => t.name === name);
    partial.outputSchema = tool?.outputSchema ?? null;
    partial.validated = client.getToolOutputValidator(name) !== undefined;
    const result = await client.callTool({ name, arguments: toolArgs }, undefined, opts());
    return { result, outputSchema: partial.outputSchema, validated: partial.validated };
  },
};

// ---- main -------------------------------------------------------------------------------------

let client;
let transport;
let printed = false;

async function closeAll(out) {
  if (!client) return;
  closing = true;
  if (TERMINATE_SESSION && transport instanceof StreamableHTTPClientTransport) {
    const done = await settle(transport.terminateSession());
    out.terminated = done.error === undefined ? true : { error: errorJson(done.error) };
  }
  await settle(client.close());
}

function finish(out) {
  if (printed) return;
  printed = true;
  process.stdout.write(`${JSON.stringify(out)}\n`, () => process.exit(0));
}

async function main() {
  transport = observe(mode === 'stdio'
    ? new StdioClientTransport({ command: target.command, args: target.args, env: { ...process.env },
                                 stderr: 'inherit' })
    : new StreamableHTTPClientTransport(target.url, { fetch: tracingFetch }));
  client = new Client({ name: 'forma-sdk-client', version: SDK_VERSION });
  client.onerror = (e) => {
    if (!closing) process.stderr.write(`forma mcp sdk client: SDK reported: ${e?.stack ?? e}\n`);
  };
  await client.connect(transport, opts());
  return scenarios[scenario](client, transport, args[0]);
}

// The watchdog covers the whole run. When it fires, the scenario (still waiting for something)
// is given up: what it gathered is printed with a Timeout error. When it fires while closing
// after the scenario ended, the scenario's own answer is printed.
let answer;
let timedOut = false;
const watchdog = setTimeout(async () => {
  timedOut = true;
  const out = answer ?? { ...structuredClone(partial), error: { name: 'Timeout', message: `the run did not end within ${WATCHDOG_MS} ms` } };
  // Close (bounded: the stdio transport needs up to 4 s to stop its server) before printing.
  await Promise.race([closeAll(out), new Promise((resolve) => setTimeout(resolve, 5000))]);
  finish(out);
}, WATCHDOG_MS);

let out;
try {
  out = await main();
} catch (e) {
  out = { ...partial, error: errorJson(e) };
}
if (!timedOut) {
  answer = out;
  await closeAll(out);
  clearTimeout(watchdog);
  finish(out);
}
