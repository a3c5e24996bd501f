// A2A test agent for forma's A2A client tests.
//
// All protocol code (JSON-RPC, SSE, task store, v0.3 <-> v1.0 translation, agent card) is
// the official SDK's (@a2a-js/sdk 1.3.0, spec v1.0, with its v0.3 compat layer enabled);
// this script only decides what to answer.
//
// Run:
//   PORT=<n> [FORMA_NPM_DIR=<dir>] node test/a2a/test_agent.mjs
//
//   PORT           TCP port on 127.0.0.1 (0 = pick a free one); default 41241.
//   FORMA_NPM_DIR  directory holding the package.json / node_modules installed by
//                  tools/bootstrap (the one with @a2a-js/sdk and express). Default: build/npm
//                  of the repository this script lives in (<script dir>/../../build/npm).
//                  Packages are loaded with createRequire() anchored there, so NODE_PATH and
//                  the current directory do not matter.
//
// When listening, prints one line to stderr: "forma a2a test agent: <url>, listening on port <n>".
// SIGTERM / SIGINT close the server (and any open SSE streams) and exit 0.
//
// Endpoints (http://127.0.0.1:PORT):
//   GET  /.well-known/agent-card.json          agent card; v0.3-shaped card when the request has
//                                              no A2A-Version header (or 0.3), v1.0 card with
//                                              "A2A-Version: 1.0"
//   POST /a2a/jsonrpc                          JSON-RPC; v0.3 methods (message/send, message/stream,
//                                              tasks/get, tasks/cancel, tasks/resubscribe) without
//                                              header, v1.0 methods (SendMessage, ...) with 1.0
//   *    /a2a/rest                             HTTP+JSON binding (same rules)
//   GET  /broken/.well-known/agent-card.json   200 {"name": 5}   (an invalid card)
//   GET  /missing/.well-known/agent-card.json  404
//
// Behaviour, by the first text part of the user message (trimmed, case-insensitive prefix;
// first match wins):
//   "person as text" -> Message, text part holding the JSON of PERSON
//   "person"         -> Message, data part holding PERSON
//   "hello..."       -> Message "Hello! You said: <text>"
//   "remember <x>"   -> Message "I will remember <x>" (stored per contextId)
//   "recall"         -> Message "You told me: <x>" / "You told me nothing"
//   "report"         -> task: submitted, working ("working on it"), artifact "report" streamed in
//                       three chunks, completed ("done"); ~50 ms between events
//   "slow <ms>"      -> task: working, waits <ms> ms, artifact "finished after <ms> ms", completed
//   "forever"        -> task: working until canceled
//   "weather"        -> task: input-required ("Which city?"); the follow-up message carrying the
//                       taskId gives the city: artifact "Sunny in <city>", completed
//   "fail"           -> task: failed ("failed on purpose")
//   "file"           -> task: completed, artifact with a file part (hello.txt, "hello file")
//                       and a data part {"lines": 1}
//   anything else    -> Message "I do not understand: <text>"
// Any running task can be canceled (tasks/cancel); it then ends in state canceled.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { loadPackage } from '../support/npm_packages.mjs';

const load = (name) => loadPackage(name, 'forma a2a test agent');
const express = load('express');
const { A2A_PROTOCOL_VERSION, AGENT_CARD_PATH, TaskState, Role } = load('@a2a-js/sdk');
const { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } = load('@a2a-js/sdk/server');
const { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } = load('@a2a-js/sdk/server/express');

const HOST = '127.0.0.1';
const PORT = Number(process.env.PORT ?? 41241);
const LEGACY_PROTOCOL_VERSION = '0.3';
const STEP_MS = 50;
const PERSON = { name: 'Ada Lovelace', age: 36, occupation: 'mathematician' };

// ---- v1.0 object builders -------------------------------------------------------------

const textPart = (text) => ({
  content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain',
});
const dataPart = (value) => ({
  content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json',
});
const filePart = (bytes, filename, mediaType) => ({
  content: { $case: 'raw', value: Buffer.from(bytes) }, metadata: undefined, filename, mediaType,
});
const agentMessage = (parts, contextId, taskId = '') => ({
  messageId: randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts,
  metadata: undefined, extensions: [], referenceTaskIds: [],
});
const now = () => new Date().toISOString();

function firstText(message) {
  const part = (message?.parts ?? []).find((p) => p.content?.$case === 'text');
  return part ? part.content.value : '';
}

// ---- the executor ---------------------------------------------------------------------

class TestAgentExecutor {
  memory = new Map();        // contextId -> remembered text
  running = new Map();       // taskId -> { canceled, wake } for executions in progress
  contextOf = new Map();     // taskId -> contextId of every task we created
  awaitingCity = new Set();  // taskIds of weather tasks in input-required

  cancelTask = async (taskId, bus) => {
    const run = this.running.get(taskId);
    if (run) {
      run.canceled = true;
      run.wake();
    }
    this.awaitingCity.delete(taskId);
    const contextId = this.contextOf.get(taskId) ?? '';
    bus.publish(AgentEvent.statusUpdate({
      taskId, contextId, metadata: undefined,
      status: { state: TaskState.TASK_STATE_CANCELED, timestamp: now(),
                message: agentMessage([textPart('canceled')], contextId, taskId) },
    }));
    bus.finished();
  };

  async execute(ctx, bus) {
    const text = firstText(ctx.userMessage);
    const t = text.trim();
    const lower = t.toLowerCase();
    const { taskId, contextId } = ctx;

    const reply = (parts) => bus.publish(AgentEvent.message(agentMessage(parts, contextId)));

    // Follow-up to a task of ours that waits for input.
    if (ctx.task && this.awaitingCity.has(taskId)) {
      this.awaitingCity.delete(taskId);
      return this.runTask(ctx, bus, { initial: ctx.task }, async (step) => {
        await step.artifact('forecast', [textPart(`Sunny in ${t}`)]);
        await step.status(TaskState.TASK_STATE_COMPLETED, 'done');
      });
    }
    if (ctx.task) {
      reply([textPart(`Task ${taskId} is not waiting for input`)]);
      return;
    }

    if (lower.startsWith('person as text')) return reply([textPart(JSON.stringify(PERSON))]);
    if (lower.startsWith('person')) return reply([dataPart(structuredClone(PERSON))]);
    if (lower.startsWith('hello')) return reply([textPart(`Hello! You said: ${text}`)]);
    if (lower.startsWith('remember')) {
      const x = t.slice('remember'.length).trim();
      this.memory.set(contextId, x);
      return reply([textPart(`I will remember ${x}`)]);
    }
    if (lower.startsWith('recall')) {
      const x = this.memory.get(contextId);
      return reply([textPart(x === undefined ? 'You told me nothing' : `You told me: ${x}`)]);
    }
    if (lower.startsWith('report')) {
      return this.runTask(ctx, bus, {}, async (step) => {
        await step.status(TaskState.TASK_STATE_WORKING, 'working on it');
        const artifactId = randomUUID();
        const chunks = ['The report: ', 'part one, ', 'part two.'];
        for (let i = 0; i < chunks.length; ++i) {
          await step.artifact('report', [textPart(chunks[i])],
                              { artifactId, append: i > 0, lastChunk: i === chunks.length - 1 });
        }
        await step.status(TaskState.TASK_STATE_COMPLETED, 'done');
      });
    }
    if (lower.startsWith('slow')) {
      const parsed = Number.parseInt(t.slice(4).trim(), 10);
      const ms = Number.isFinite(parsed) && parsed >= 0 ? parsed : 1000;
      return this.runTask(ctx, bus, {}, async (step) => {
        await step.status(TaskState.TASK_STATE_WORKING, 'working on it', { delay: 0 });
        await step.sleep(ms);
        await step.artifact('result', [textPart(`finished after ${ms} ms`)], { delay: 0 });
        await step.status(TaskState.TASK_STATE_COMPLETED, 'done', { delay: 0 });
      });
    }
    if (lower.startsWith('forever')) {
      return this.runTask(ctx, bus, {}, async (step) => {
        await step.status(TaskState.TASK_STATE_WORKING, 'working on it');
        await step.sleep(Infinity);
      });
    }
    if (lower.startsWith('weather')) {
      return this.runTask(ctx, bus, {}, async (step) => {
        await step.status(TaskState.TASK_STATE_WORKING, 'working on it');
        await step.status(TaskState.TASK_STATE_INPUT_REQUIRED, 'Which city?');
        this.awaitingCity.add(taskId);  // the SDK keeps the task's event bus for the follow-up
      });
    }
    if (lower.startsWith('fail')) {
      return this.runTask(ctx, bus, {}, async (step) => {
        await step.status(TaskState.TASK_STATE_WORKING, 'working on it');
        await step.status(TaskState.TASK_STATE_FAILED, 'failed on purpose');
      });
    }
    if (lower.startsWith('file')) {
      return this.runTask(ctx, bus, {}, async (step) => {
        await step.status(TaskState.TASK_STATE_WORKING, 'working on it');
        await step.artifact('hello.txt', [filePart('hello file', 'hello.txt', 'text/plain'),
                                          dataPart({ lines: 1 })]);
        await step.status(TaskState.TASK_STATE_COMPLETED, 'done');
      });
    }
    return reply([textPart(`I do not understand: ${text}`)]);
  }

  // Publishes the task (new, in state submitted, or `initial` moved to working), then runs
  // `body` with helpers that publish status / artifact events ~STEP_MS apart and stop
  // quietly once the task was canceled (cancelTask publishes the canceled status).
  async runTask(ctx, bus, { initial }, body) {
    const { taskId, contextId } = ctx;
    const run = { canceled: false, wake: () => {} };
    this.running.set(taskId, run);
    this.contextOf.set(taskId, contextId);

    class Canceled extends Error {}
    const sleep = (ms) => new Promise((resolve) => {
      const timer = Number.isFinite(ms) ? setTimeout(resolve, ms) : undefined;
      run.wake = () => { clearTimeout(timer); resolve(); };
    }).then(() => { if (run.canceled) throw new Canceled(); });
    const step = {
      sleep,
      status: async (state, text, { delay = STEP_MS } = {}) => {
        await sleep(delay);
        bus.publish(AgentEvent.statusUpdate({
          taskId, contextId, metadata: undefined,
          status: { state, timestamp: now(),
                    message: text === undefined ? undefined : agentMessage([textPart(text)], contextId, taskId) },
        }));
      },
      artifact: async (name, parts, { artifactId = randomUUID(), append = false, lastChunk = true,
                                      delay = STEP_MS } = {}) => {
        await sleep(delay);
        bus.publish(AgentEvent.artifactUpdate({
          taskId, contextId, append, lastChunk, metadata: undefined,
          artifact: { artifactId, name, description: '', parts, metadata: undefined, extensions: [] },
        }));
      },
    };

    try {
      // The SDK requires the first event of an execution to be a task (or a message).
      const task = initial
        ? { ...initial, status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: now() } }
        : { id: taskId, contextId, artifacts: [], history: [ctx.userMessage], metadata: undefined,
            status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() } };
      bus.publish(AgentEvent.task(task));
      await body(step);
    } catch (e) {
      if (!(e instanceof Canceled)) throw e;
    } finally {
      this.running.delete(taskId);
    }
  }
}

// ---- card and server ------------------------------------------------------------------

const card = {
  name: 'forma test agent',
  description: 'A2A agent that forma\'s client tests talk to',
  supportedInterfaces: [],  // filled in once the port is known
  provider: { organization: 'forma', url: 'https://example.invalid/forma' },
  version: '1.0.0',
  documentationUrl: '',
  iconUrl: '',
  capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ['text/plain', 'application/json'],
  defaultOutputModes: ['text/plain', 'application/json'],
  skills: [
    { id: 'chat', name: 'Chat', description: 'Direct answers: hello, person, remember/recall',
      tags: ['test'], examples: ['hello', 'person', 'remember blue', 'recall'],
      inputModes: [], outputModes: [], securityRequirements: [] },
    { id: 'tasks', name: 'Tasks', description: 'Task flows: report, slow <ms>, forever, weather, fail, file',
      tags: ['test'], examples: ['report', 'slow 2000', 'forever', 'weather', 'fail', 'file'],
      inputModes: [], outputModes: [], securityRequirements: [] },
  ],
  signatures: [],
};

function setInterfaces(base) {
  // The first 0.3 entry becomes "url" / "preferredTransport" of the v0.3 card.
  card.supportedInterfaces = [
    { url: `${base}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION },
    { url: `${base}/a2a/rest`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION },
    { url: `${base}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: LEGACY_PROTOCOL_VERSION },
    { url: `${base}/a2a/rest`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: LEGACY_PROTOCOL_VERSION },
  ];
}
setInterfaces(`http://${HOST}:${PORT}`);

const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new TestAgentExecutor());
const legacyCompat = { enabled: true };
const app = express();
app.get('/broken/.well-known/agent-card.json', (_req, res) => res.status(200).json({ name: 5 }));
app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler, legacyCompat }));
app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));
app.use('/a2a/rest', restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));

const server = http.createServer(app);
server.on('error', (e) => {
  process.stderr.write(`forma a2a test agent: ${e.message}\n`);
  process.exit(1);
});
server.listen(PORT, HOST, () => {
  const port = server.address().port;
  const base = `http://${HOST}:${port}`;
  setInterfaces(base);
  process.stderr.write(`forma a2a test agent: ${base}/a2a/jsonrpc, listening on port ${port}\n`);
});

function shutdown() {
  server.close();
  server.closeAllConnections();  // open SSE streams would otherwise keep close() waiting
  process.exit(0);
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
