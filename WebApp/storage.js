// The device's storage: the data of the inspector's open batches read ahead for offline work,
// the browser asked to keep the app's data (not to evict it under pressure), and how much of the
// browser's quota the app uses.
import { read, Offline, Refused, SessionEnded } from "./api.js";

// Enough for a day's batches; more would spend quota on work not yet in hand.
const MOST_BATCHES = 10;
const MOST_TASKS = 200;

// What this page has read ahead already, by user and path: each front page reads only what is new.
const done = new Set();

/** Reads each open batch and its tasks' datasheets into the device's copies (api.read keeps
 *  them), each once per page load; resolves with how many answers are kept. Stops quietly when
 *  the network goes; an answer the server refuses (a task without a datasheet) is left out. */
export async function readAhead(user, batches) {
  let tasksLeft = MOST_TASKS;
  const once = async (path) => {
    const key = user + " " + path;
    if (done.has(key)) return null;
    try {
      const data = await read(user, path);
      done.add(key);
      return data;
    } catch (error) {
      if (error instanceof Offline || error instanceof SessionEnded || !(error instanceof Refused)) throw error;
      done.add(key);
      return null;
    }
  };
  try {
    for (const summary of batches.filter((b) => b.status <= 5).slice(0, MOST_BATCHES)) {
      const path = `/v1/batches/${encodeURIComponent(summary.batchID)}`;
      // A batch changes as work is sent: read again each time, its datasheets once.
      done.delete(user + " " + path);
      const batch = await once(path);
      for (const task of (batch?.tasks || []).filter((t) => t.collectionStatus !== 3)) {
        if (tasksLeft-- <= 0) break;
        await once(`/v1/tasks/${encodeURIComponent(task.taskID)}/datasheet`);
      }
    }
  } catch (error) {
    if (!(error instanceof Offline)) throw error;
  }
  return [...done].filter((key) => key.startsWith(user + " ")).length;
}

/** Asks the browser to keep the app's data; resolves true when it will. */
export async function keepData() {
  try { return (await navigator.storage?.persist?.()) === true; } catch { return false; }
}

/** `{ used, quota, kept }` in bytes, or null where the browser does not say. */
export async function usage() {
  try {
    const estimate = await navigator.storage?.estimate?.();
    if (!estimate) return null;
    return { used: estimate.usage || 0, quota: estimate.quota || 0, kept: (await navigator.storage.persisted?.()) === true };
  } catch {
    return null;
  }
}
