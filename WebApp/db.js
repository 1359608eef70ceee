// The device's own store (IndexedDB): the outbox of commands, the photo queue, copies of the
// answers the screens need offline, and small settings. Everything the inspector did lives here
// until the server has it, so a reload, a crash or a closed tab loses nothing.
const NAME = "itemaudit";
const STORES = { outbox: { keyPath: "seq", autoIncrement: true }, photos: { keyPath: "sha256" }, cache: { keyPath: "key" }, meta: { keyPath: "key" } };
let opening;

function open() {
  opening ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(NAME, 1);
    request.onupgradeneeded = () => {
      for (const [name, options] of Object.entries(STORES)) {
        if (!request.result.objectStoreNames.contains(name)) request.result.createObjectStore(name, options);
      }
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return opening;
}

function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function store(name, mode = "readonly") {
  return (await open()).transaction(name, mode).objectStore(name);
}

/** Writes `value`; resolves with its key once the transaction is durable. */
export async function put(name, value) {
  const db = await open();
  const tx = db.transaction(name, "readwrite", { durability: "strict" });
  const key = await done(tx.objectStore(name).put(value));
  await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); });
  return key;
}

export async function get(name, key) { return done((await store(name)).get(key)); }
export async function all(name) { return done((await store(name)).getAll()); }
export async function remove(name, key) { return done((await store(name, "readwrite")).delete(key)); }

/** A setting or remembered value (`meta` store). */
export async function getMeta(key) { return (await get("meta", key))?.value; }
export async function setMeta(key, value) { return put("meta", { key, value }); }
