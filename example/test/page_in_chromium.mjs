// The serve_agent page in headless Chromium, as a user uses it: types a request, sees the
// refund call wait for approval, clicks Approve, sees the answer and the state.
//
//   node --experimental-websocket page_in_chromium.mjs <chromium> <serve_agent>
//
// Starts serve_agent on a free port, then Chromium with the DevTools protocol on a free port,
// drives the page through it (the clicks are DOM clicks on the page's own buttons) and prints
// what the page shows, a line per step. Exits 1 with the reason when a step does not come
// within 30 s.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const [chromiumPath, serveAgentPath] = process.argv.slice(2);
if (!chromiumPath || !serveAgentPath) {
  console.error("usage: page_in_chromium.mjs <chromium> <serve_agent>");
  process.exit(2);
}

if (typeof WebSocket === "undefined") {
  console.error("this Node.js has no WebSocket: run it with --experimental-websocket (Node.js 20.10 and later)");
  process.exit(2);
}

const children = [];
const profile = mkdtempSync(path.join(tmpdir(), "forma-chromium-"));
function cleanUp() {
  for (const child of children) child.kill("SIGKILL");
  try {
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }); // Chromium may still be writing
  } catch {
    // a leftover profile in the temporary directory is no failure
  }
}
function fail(why) {
  console.log("page: " + why);
  cleanUp();
  process.exit(1);
}
setTimeout(() => fail("no end within 60 s"), 60000).unref();

// Starts `program` and resolves with the first match of `pattern` in what it prints.
function startAndRead(program, args, stream, pattern) {
  const child = spawn(program, args, { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let seen = "";
    child[stream].on("data", (chunk) => {
      seen += chunk;
      const match = seen.match(pattern);
      if (match) resolve(match[1]);
    });
    child.on("exit", (code) => reject(new Error(program + " exited with " + code + ": " + seen)));
  });
}

const port = await startAndRead(serveAgentPath, ["0"], "stdout", /Open http:\/\/127\.0\.0\.1:(\d+)\//);
const browserUrl = await startAndRead(chromiumPath, ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                                     "--remote-debugging-port=0", "--user-data-dir=" + profile, "about:blank"],
                                      "stderr", /DevTools listening on (ws:\/\/\S+)/);

// The DevTools protocol over its WebSocket: a command's result by its id.
const socket = new WebSocket(browserUrl);
await new Promise((resolve, reject) => { socket.onopen = resolve; socket.onerror = reject; });
let nextId = 0;
const waiting = new Map();
socket.onmessage = (message) => {
  const reply = JSON.parse(message.data);
  const pending = waiting.get(reply.id);
  if (!pending) return;
  waiting.delete(reply.id);
  if (reply.error) pending.reject(new Error(JSON.stringify(reply.error)));
  else pending.resolve(reply.result);
};
function command(method, params = {}, sessionId = undefined) {
  const id = ++nextId;
  socket.send(JSON.stringify({ id, method, params, sessionId }));
  return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
}

const { targetId } = await command("Target.createTarget", { url: "http://127.0.0.1:" + port + "/" });
const { sessionId } = await command("Target.attachToTarget", { targetId, flatten: true });
async function evaluate(expression) {
  const { result, exceptionDetails } = await command("Runtime.evaluate", { expression, returnByValue: true }, sessionId);
  if (exceptionDetails) throw new Error(expression + ": " + JSON.stringify(exceptionDetails));
  return result.value;
}
async function waitFor(expression, what) {
  const until = Date.now() + 30000;
  while (Date.now() < until) {
    if (await evaluate(expression).catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  fail("no " + what + " within 30 s; the page shows: " + (await evaluate("document.body.innerText").catch(() => "nothing")));
}
const text = (id) => evaluate(`document.getElementById(${JSON.stringify(id)}).innerText`);
const status = (expected) => `document.getElementById("status").textContent === ${JSON.stringify(expected)}`;

await waitFor(`document.readyState === "complete" && !!document.getElementById("send")`, "page");
console.log("page: " + (await evaluate("document.title")));
await evaluate(`document.getElementById("prompt").value = "Refund order A-1042, it arrived broken";
                document.getElementById("send").click()`);
await waitFor(status("waiting for approval"), "approval request");
console.log("page: asks " + (await text("approval-text")).trim());
console.log("page: refunded before the click: " + (/got refunded/.test(await text("log")) ? "yes" : "no"));
await evaluate(`document.getElementById("approve").click()`);
await waitFor(status("idle"), "end of the approved run");
const log = await text("log");
console.log("page: " + (log.match(/got refunded[^\n]*/) || ["no refund shown"])[0]);
console.log("page: state " + JSON.stringify(JSON.parse(await text("state"))));
socket.close();
cleanUp();
process.exit(0);
