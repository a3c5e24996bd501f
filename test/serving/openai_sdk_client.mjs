// OpenAI API client driver for forma's interop tests of its OpenAI-compatible serving endpoints
// (POST /v1/chat/completions, POST /v1/responses, GET /v1/responses/{id},
// POST /v1/responses/{id}/cancel).
//
// All protocol code (request building, auth header, SSE parsing, error mapping) is the official
// SDK's (the `openai` npm package, 6.49.0: the last major that runs on Node.js 20; 7.x declares
// node >= 22); this script only decides what to call and prints what came back.
//
// Run:
//   [FORMA_NPM_DIR=<dir>] node test/serving/openai_sdk_client.mjs <base_url> <scenario> [args...]
//
//   base_url       the API root the SDK appends its paths to, e.g. http://127.0.0.1:PORT/v1
//                  (the SDK posts to <base_url>/chat/completions, <base_url>/responses, ...).
//   FORMA_NPM_DIR  directory holding the package.json / node_modules installed by
//                  tools/bootstrap (the one with openai). Default: build/npm of the repository
//                  this script lives in (<script dir>/../../build/npm). Packages are loaded
//                  with createRequire() anchored there.
//   FORMA_OPENAI_KEY
//                  the API key, sent as "Authorization: Bearer <key>" (default "test-key").
//   FORMA_SDK_CLIENT_TIMEOUT_MS
//                  give up after this many ms (default 30000). Handed to the SDK as its
//                  `timeout` (which only covers the wait for the response headers) and also
//                  used for a timer over the whole scenario that aborts the request / stream
//                  and reports {"error": {"name": "Timeout", ...}} (a stream the server never
//                  closes ends up here).
//   FORMA_SDK_CLIENT_TRACE=1
//                  log every HTTP request (headers, body) and response status / content type
//                  (and body, when it is not an event stream) to stderr.
//
// The client: new OpenAI({baseURL, apiKey, maxRetries: 0, timeout}). The model is always
// "forma".
//
// Prints exactly one JSON line to stdout and exits 0, also when the SDK threw; then the line is
// {"error": {"name", "message", "status"?, "type"?, "code"?, "param"?, "body"?, "cause"?}} plus
// whatever the scenario had gathered ("result", "chunks", "events", "first", "created", ...).
// For an HTTP error (the SDK's APIError: BadRequestError, NotFoundError, ...) "status" is the
// HTTP status and "type" / "code" / "param" are the fields of the body's "error" object
// (absent when the body lacks them, null when they are null), "body" is that "error" object.
// An {"error": {...}} event inside a stream raises an APIError without status.
// Bad usage: message on stderr, exit 2.
//
// Scenarios (<text> is the user message):
//   chat <text>               {"result": <ChatCompletion>} from chat.completions.create
//   chat_stream <text>        {"chunks": [<ChatCompletionChunk>...], "text": <joined
//                             choices[0].delta.content>}, sent with stream: true and
//                             stream_options: {include_usage: true}
//   chat_schema <text>        response_format json_schema "person" ({name: string, age: integer},
//                             strict): {"result": <ChatCompletion>, "parsed": JSON.parse(content)}
//   chat_bad                  sends messages: [] (invalid): normally prints {"error": ...}
//   responses <text>          {"result": <Response>, "output_text": result.output_text}
//   responses_stream <text>   {"events": [<ResponseStreamEvent>...], "text": <joined deltas of
//                             the response.output_text.delta events>}, sent with stream: true
//   responses_schema <text>   text.format json_schema "person" (as above):
//                             {"result": <Response>, "parsed": JSON.parse(output_text)}
//   background <text>         creates with background: true, then polls responses.retrieve(id)
//                             every 50 ms until the status is completed, failed, cancelled or
//                             incomplete (at most 200 polls):
//                             {"created": <Response>, "final": <last Response retrieved>,
//                              "polls": <number of retrieves>}
//   background_cancel <text>  creates with background: true, then responses.cancel(id) and a
//                             retrieve: {"created", "cancelled", "retrieved"} (all Responses)
//   resume <text> <n>         creates with background: true and stream: true, reads up to the
//                             n-th event (counting from 1; the id comes from the first event
//                             carrying "response"), breaks off that stream (the SDK aborts the
//                             HTTP request) and resumes it with responses.retrieve(id,
//                             {stream: true, starting_after: <sequence_number of the last event
//                             read>}) read to its end:
//                             {"first": [...], "rest": [...], "text": <output_text deltas of
//                              first + rest joined>}
//
// How this SDK version does what these scenarios need (see its .d.ts):
//   responses.retrieve(id, {stream: true, starting_after: N}, options)
//       -> GET <base>/responses/{id}?stream=true&starting_after=N, returns a Stream of events;
//          without stream: GET <base>/responses/{id}, returns a Response.
//   responses.cancel(id, options) -> POST <base>/responses/{id}/cancel (no body).
//   The SDK adds "output_text" (the joined output_text parts of the message items of "output")
//   to every Response that create / retrieve return (not to cancel's), so those Responses must
//   carry an "output" array.
//   Streams: every SSE event's "data" is JSON.parse'd and yielded as is (the "event:" line is not
//   used, events are told apart by their data's "type"); a "data: [DONE]" line ends it, but so
//   does the server closing the stream; data with an "error" key raises an APIError (a
//   Responses {"type": "error", ...} event has none and is yielded like any other). The
//   response's Content-Type is not checked for streams; a non-2xx status raises before the body
//   is read (its body JSON-parsed if it can be, whatever its Content-Type).
//   Requests carry "Authorization: Bearer <key>", "Accept: application/json" (streams too),
//   "Content-Type: application/json" when there is a body (cancel has none), "User-Agent:
//   OpenAI/JS <version>" and X-Stainless-{Retry-Count,Lang,Package-Version,OS,Arch,Runtime,
//   Runtime-Version}.
import { setMaxListeners } from 'node:events';
import { loadPackage } from '../support/npm_packages.mjs';

const load = (name) => loadPackage(name, 'forma openai sdk client');
const { OpenAI, APIError } = load('openai');

const USAGE = 'usage: node openai_sdk_client.mjs <base_url> ' +
  '(chat <text> | chat_stream <text> | chat_schema <text> | chat_bad | responses <text> | ' +
  'responses_stream <text> | responses_schema <text> | background <text> | ' +
  'background_cancel <text> | resume <text> <n>)';
const ARITY = { chat: 1, chat_stream: 1, chat_schema: 1, chat_bad: 0, responses: 1, responses_stream: 1,
                responses_schema: 1, background: 1, background_cancel: 1, resume: 2 };

const [baseUrl, scenario, ...args] = process.argv.slice(2);
if (!baseUrl || !Object.hasOwn(ARITY, scenario) || args.length !== ARITY[scenario] ||
    (scenario === 'resume' && !(Number.isInteger(Number(args[1])) && Number(args[1]) >= 1))) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const TIMEOUT_MS = Number(process.env.FORMA_SDK_CLIENT_TIMEOUT_MS || 30000);
const TRACE = Boolean(process.env.FORMA_SDK_CLIENT_TRACE);
const API_KEY = process.env.FORMA_OPENAI_KEY || 'test-key';
const MODEL = 'forma';
const POLL_MS = 50;
const MAX_POLLS = 200;
const TERMINAL = new Set(['completed', 'failed', 'cancelled', 'incomplete']);

// ---- HTTP plumbing handed to the SDK (observation only) ----------------------------------

const trace = (line) => { if (TRACE) process.stderr.write(`forma openai sdk client: ${line}\n`); };

async function tracingFetch(url, init = {}) {
  if (TRACE) {
    const headers = Object.fromEntries(new Headers(init.headers ?? {}));
    if (headers.authorization) headers.authorization = headers.authorization.replace(/ .*/, ' <key>');
    trace(`> ${init.method ?? 'GET'} ${url} ${JSON.stringify(headers)}` +
          (typeof init.body === 'string' ? ` ${init.body}` : ''));
  }
  const response = await fetch(url, init);
  const type = response.headers.get('content-type') ?? '';
  let body = '';
  if (TRACE && !type.startsWith('text/event-stream')) body = ` ${await response.clone().text()}`;
  trace(`< ${response.status} ${type}${body}`);
  return response;
}

// ---- request builders -------------------------------------------------------------------

const PERSON_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer' } },
  required: ['name', 'age'],
  additionalProperties: false,
};
const userMessages = (text) => [{ role: 'user', content: text }];

// ---- output -----------------------------------------------------------------------------

function errorJson(e) {
  const out = { name: e?.name ?? 'Error', message: e?.message ?? String(e) };
  if (e instanceof APIError) {
    out.name = e.constructor?.name ?? out.name;  // BadRequestError, NotFoundError, ...
    for (const key of ['status', 'type', 'code', 'param']) {
      if (e[key] !== undefined) out[key] = e[key];
    }
    if (e.error !== undefined) out.body = e.error;
  }
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
// The SDK adds an abort listener to this signal per request and leaves it there: quiet Node's
// MaxListenersExceededWarning for the polling scenario.
setMaxListeners(MAX_POLLS + 10, abort.signal);
const opts = { signal: abort.signal };
const partial = {};  // what a scenario gathered so far; printed along with an error

async function collect(stream, key, limit = Infinity) {
  const events = (partial[key] = []);
  for await (const event of stream) {
    events.push(event);
    if (events.length >= limit) break;  // ends the iteration: the SDK aborts the request
  }
  return events;
}

const outputTextOf = (events) => events.filter((e) => e?.type === 'response.output_text.delta')
  .map((e) => e.delta ?? '').join('');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function createBackground(client, text) {
  const created = await client.responses.create({ model: MODEL, input: text, background: true }, opts);
  partial.created = created;
  if (!created?.id) throw new ScenarioError('UnexpectedResult', 'the created response has no id');
  return created;
}

const scenarios = {
  chat: async (client, text) => ({
    result: await client.chat.completions.create({ model: MODEL, messages: userMessages(text) }, opts),
  }),
  chat_stream: async (client, text) => {
    const stream = await client.chat.completions.create({
      model: MODEL, messages: userMessages(text), stream: true, stream_options: { include_usage: true },
    }, opts);
    const chunks = await collect(stream, 'chunks');
    return { chunks, text: chunks.map((c) => c?.choices?.[0]?.delta?.content ?? '').join('') };
  },
  chat_schema: async (client, text) => {
    const result = await client.chat.completions.create({
      model: MODEL, messages: userMessages(text),
      response_format: { type: 'json_schema',
                         json_schema: { name: 'person', strict: true, schema: PERSON_SCHEMA } },
    }, opts);
    partial.result = result;
    return { result, parsed: JSON.parse(result?.choices?.[0]?.message?.content ?? '') };
  },
  chat_bad: async (client) => ({
    result: await client.chat.completions.create({ model: MODEL, messages: [] }, opts),
  }),
  responses: async (client, text) => {
    const result = await client.responses.create({ model: MODEL, input: text }, opts);
    return { result, output_text: result.output_text };
  },
  responses_stream: async (client, text) => {
    const stream = await client.responses.create({ model: MODEL, input: text, stream: true }, opts);
    const events = await collect(stream, 'events');
    return { events, text: outputTextOf(events) };
  },
  responses_schema: async (client, text) => {
    const result = await client.responses.create({
      model: MODEL, input: text,
      text: { format: { type: 'json_schema', name: 'person', strict: true, schema: PERSON_SCHEMA } },
    }, opts);
    partial.result = result;
    return { result, parsed: JSON.parse(result.output_text ?? '') };
  },
  background: async (client, text) => {
    const created = await createBackground(client, text);
    let final = created;
    let polls = 0;
    while (polls < MAX_POLLS) {
      if (polls > 0 || !TERMINAL.has(created.status)) await sleep(POLL_MS);
      final = await client.responses.retrieve(created.id, {}, opts);
      polls += 1;
      partial.final = final;
      partial.polls = polls;
      if (TERMINAL.has(final?.status)) break;
    }
    return { created, final, polls };
  },
  background_cancel: async (client, text) => {
    const created = await createBackground(client, text);
    const cancelled = await client.responses.cancel(created.id, opts);
    partial.cancelled = cancelled;
    const retrieved = await client.responses.retrieve(created.id, {}, opts);
    return { created, cancelled, retrieved };
  },
  resume: async (client, text, n) => {
    const stream = await client.responses.create({ model: MODEL, input: text, background: true, stream: true },
                                                 opts);
    const first = await collect(stream, 'first', Number(n));
    const id = first.find((e) => e?.response?.id)?.response?.id;
    if (!id) throw new ScenarioError('UnexpectedResult', `no event among the first ${first.length} carried a response id`);
    const last = first.at(-1)?.sequence_number;
    if (typeof last !== 'number') {
      throw new ScenarioError('UnexpectedResult', 'the last event read has no numeric sequence_number');
    }
    const resumed = await client.responses.retrieve(id, { stream: true, starting_after: last }, opts);
    const rest = await collect(resumed, 'rest');
    return { first, rest, text: outputTextOf([...first, ...rest]) };
  },
};

async function main() {
  const client = new OpenAI({ baseURL: baseUrl, apiKey: API_KEY, maxRetries: 0, timeout: TIMEOUT_MS,
                              fetch: tracingFetch });
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
  // An aborted stream just ends (the SDK swallows the abort): report the timeout all the same.
  if (abort.signal.aborted) print({ error: errorJson(abort.signal.reason), ...partial });
  else print(out);
} catch (e) {
  clearTimeout(timer);
  const error = abort.signal.aborted && abort.signal.reason instanceof Error ? abort.signal.reason : e;
  print({ error: errorJson(error), ...partial });
}
