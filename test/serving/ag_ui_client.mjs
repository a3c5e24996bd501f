// AG-UI client driver for forma's interop tests of forma::serving::ag_ui_endpoint.
//
// All protocol code (the RunAgentInput, the POST, SSE parsing, the event checks, applying
// events to messages and state, interrupts and resume) is the official SDK's (@ag-ui/client
// 1.0.0's HttpAgent); this script only decides what to run and prints what came back.
//
// Run:
//   [FORMA_NPM_DIR=<dir>] node test/serving/ag_ui_client.mjs <url> <scenario> [args...]
//
//   url            where RunAgentInput is posted, e.g. http://127.0.0.1:PORT/ag-ui
//   FORMA_NPM_DIR  the directory tools/bootstrap installed the npm packages into (default:
//                  build/npm of this repository).
//
// Scenarios:
//   run <text>                 one run of a user message
//   resume <text> <answer>     a run that pauses on interrupts, then a run that answers them:
//                              <answer> "approve" or "reject" answers approvals, any other text
//                              answers a question, "cancel" cancels whatever was asked
//   abort <text>               a run aborted after its first text content
//
// Prints one JSON line: {"runs": [{"events": [...], "newMessages": [...], "result",
// "interrupts"}], "messages": [...], "state"} or, when the SDK threw, {"error": {"name",
// "message"}} with the runs gathered so far.
import { loadPackage } from "../support/npm_packages.mjs";

const { HttpAgent } = loadPackage("@ag-ui/client", "forma ag-ui client");

const [url, scenario, ...args] = process.argv.slice(2);
if (!url || !scenario) {
  console.error("usage: ag_ui_client.mjs <url> <scenario> [args...]");
  process.exit(2);
}

const agent = new HttpAgent({ url, threadId: "thread-1" });
const runs = [];

async function run(parameters = {}, onText) {
  const events = [];
  const outcome = await agent.runAgent(parameters, {
    onEvent({ event }) {
      events.push(event);
      if (event.type === "TEXT_MESSAGE_CONTENT" && onText) onText();
    },
  });
  const record = { events, newMessages: outcome.newMessages, result: outcome.result ?? null,
                   interrupts: agent.pendingInterrupts ?? [] };
  runs.push(record);
  return record;
}

function answer(interrupt, word) {
  if (word === "cancel") return { interruptId: interrupt.id, status: "cancelled" };
  if (interrupt.reason === "tool_approval")
    return { interruptId: interrupt.id, status: "resolved", payload: { approved: word === "approve", reason: "said " + word } };
  return { interruptId: interrupt.id, status: "resolved", payload: word };
}

try {
  const timer = setTimeout(() => { console.log(JSON.stringify({ error: { name: "Timeout" }, runs })); process.exit(0); }, 30000);
  if (scenario === "run") {
    agent.addMessage({ id: "user-1", role: "user", content: args[0] });
    await run();
  } else if (scenario === "resume") {
    agent.addMessage({ id: "user-1", role: "user", content: args[0] });
    const first = await run();
    await run({ resume: first.interrupts.map((i) => answer(i, args[1])) });
  } else if (scenario === "abort") {
    agent.addMessage({ id: "user-1", role: "user", content: args[0] });
    await run({}, () => agent.abortRun());
  } else {
    console.error("unknown scenario " + scenario);
    process.exit(2);
  }
  clearTimeout(timer);
  console.log(JSON.stringify({ runs, messages: agent.messages, state: agent.state }));
} catch (e) {
  console.log(JSON.stringify({ error: { name: e?.name, message: e?.message ?? String(e) }, runs, messages: agent.messages }));
}
process.exit(0);
