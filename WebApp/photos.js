// Photos: from the camera input, downscaled on the device to what inspection needs (the long
// side at most 1600 px, JPEG), hashed (SHA-256, as the server addresses photos) and kept in the
// photo queue; thumbnails drawn from the device's copy, else fetched with the session's token.
import { call } from "./api.js";
import { keptPhoto } from "./outbox.js";

const LONG_SIDE = 1600;
const urls = new Map();

/** A downscaled JPEG of `file` with its SHA-256 (hex): { blob, sha256 }. */
export async function prepare(file) {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, LONG_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close?.();
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.85));
  const digest = await crypto.subtle.digest("SHA-256", await blob.arrayBuffer());
  const sha256 = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return { blob, sha256 };
}

/** Shows the device's copy of a new photo from now on (it leaves the queue once uploaded, maybe
 *  before the server has the command that attaches it to a task it lets this user see). */
export function remember(sha256, blob) {
  if (!urls.has(sha256)) urls.set(sha256, URL.createObjectURL(blob));
}

/** An <img> that shows the photo `sha256` (thumbnail size) once it is loaded. */
export function thumbnail(sha256, alt = "") {
  const img = document.createElement("img");
  img.alt = alt;
  img.className = "thumb";
  img.width = 64;
  img.height = 64;
  if (!sha256) return img;
  url(sha256).then((src) => { if (src) img.src = src; });
  return img;
}

async function url(sha256) {
  if (urls.has(sha256)) return urls.get(sha256);
  let blob = (await keptPhoto(sha256))?.blob;
  if (!blob) {
    try {
      blob = await (await call("GET", `/v1/photos/${sha256}?size=thumb`)).blob();
    } catch {
      return null; // offline or not uploaded yet: the box stays empty
    }
  }
  const made = URL.createObjectURL(blob);
  urls.set(sha256, made);
  return made;
}
