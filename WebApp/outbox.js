// The outbox: every action is a command saved on the device at once (its commandID and
// occurredAt fixed then), shown as done, and sent in bundles when the server can be reached,
// with backoff between tries. Photos wait in their own queue and go first, any order, each
// retried whole. A command the server refuses stays, with its reason, until the inspector has
// read it. Each user's work is kept apart, and sent only while that user is signed in.
import { all, put, remove, get } from "./db.js";
import { call, Offline, SessionEnded, Refused } from "./api.js";

const listeners = new Set();
let user = null;
let running = false;
let again = false;
let delay = 1000;
let timer = null;
// `position`: the log's position after the last bundle this device sent (0: none yet), for the
// reports' read-your-writes.
export const status = { offline: false, sessionEnded: false, pending: 0, photos: 0, refused: [], position: 0 };

/** Calls `listener` whenever the queue or the connection changes. */
export function onChange(listener) { listeners.add(listener); }

async function changed() {
  const commands = (await all("outbox")).filter((r) => r.user === user);
  const photos = (await all("photos")).filter((p) => p.user === user && p.state === "pending");
  status.pending = commands.filter((r) => r.state === "pending").length;
  status.photos = photos.length;
  status.refused = commands.filter((r) => r.state === "refused");
  for (const listener of listeners) listener(status);
}

/** Sends for `name` from now on (null: nobody is signed in, nothing is sent). */
export function setUser(name) {
  user = name;
  status.sessionEnded = false;
  delay = 1000;
  changed();
  if (user) flush();
}

/** Stops sending until a user signs in again (the session ended); the count of what is not yet
 *  sent stays on screen. */
export function pause() {
  status.sessionEnded = true;
  status.offline = false; // the server answered that the session ended
  changed();
}

/** Saves a command for the signed-in user and starts sending; resolves with the saved command. */
export async function enqueue(command) {
  const full = { commandID: crypto.randomUUID(), occurredAt: new Date().toISOString(), ...command };
  await put("outbox", { user, command: full, state: "pending" });
  await changed();
  flush();
  return full;
}

/** Saves a photo's bytes for upload. */
export async function enqueuePhoto(sha256, blob, contentType, taskID) {
  await put("photos", { sha256, blob, contentType, taskID, user, state: "pending" });
  await changed();
}

/** The user's commands not yet accepted (pending or refused), oldest first. */
export async function unsent() {
  return (await all("outbox")).filter((r) => r.user === user && r.state === "pending").map((r) => r.command);
}

/** A photo kept on the device (for its thumbnail before upload). */
export async function keptPhoto(sha256) { return get("photos", sha256); }

/** Forgets a refused command once the inspector has read why. */
export async function dismiss(seq) {
  await remove("outbox", seq);
  await changed();
}

/** Sends what is queued now; one run at a time, another after it when asked meanwhile. */
export async function flush() {
  if (!user || status.sessionEnded) return;
  if (running) { again = true; return; }
  running = true;
  clearTimeout(timer);
  try {
    do {
      again = false;
      await sendPhotos();
      await sendCommands();
    } while (again);
    status.offline = false;
    delay = 1000;
  } catch (error) {
    if (error instanceof SessionEnded) {
      status.sessionEnded = true;
      status.offline = false; // the server answered
    } else {
      status.offline = error instanceof Offline;
      timer = setTimeout(flush, delay);
      delay = Math.min(delay * 2, 30000);
    }
  } finally {
    running = false;
    await changed();
  }
}

async function sendPhotos() {
  const photos = (await all("photos")).filter((p) => p.user === user && p.state === "pending");
  for (const photo of photos) {
    try {
      await call("PUT", `/v1/photos/${photo.sha256}`, { body: photo.blob, contentType: photo.contentType });
      await remove("photos", photo.sha256);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      await put("photos", { ...photo, state: "refused", refusal: error.problem });
    }
    await changed();
  }
}

async function sendCommands() {
  for (;;) {
    const queued = (await all("outbox")).filter((r) => r.user === user && r.state === "pending").slice(0, 100);
    if (queued.length === 0) return;
    let outcomes;
    try {
      const answer = await (await call("POST", "/v1/commands", { json: { commands: queued.map((r) => r.command) } })).json();
      outcomes = answer.outcomes;
      status.position = Math.max(status.position, answer.position || 0);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      // The whole bundle was refused (a command that does not parse, say): each keeps the reason.
      const refusal = { code: error.problem.code || String(error.status), message: error.message, remedy: error.problem.remedy };
      for (const record of queued) await put("outbox", { ...record, state: "refused", refusal });
      continue;
    }
    for (const [index, record] of queued.entries()) {
      const outcome = outcomes[index];
      if (outcome?.status === "refused") {
        await put("outbox", { ...record, state: "refused", refusal: outcome.refusal });
      } else {
        await remove("outbox", record.seq);
      }
    }
    window.dispatchEvent(new CustomEvent("itemaudit-sent"));
  }
}

addEventListener("online", () => { delay = 1000; flush(); });
setInterval(() => { if (status.pending || status.photos) flush(); }, 15000);
