// The GTIN in a scanned code, read on the device so a scan matches a task offline: digits of a
// GTIN-8/12/13/14, or a GS1 element string with AI (01), with FNC1 as the GS character or a
// symbology identifier (]C1, ]e0, ]d2, ]Q3) first. Anything else is the server's to read
// (`GET /v1/tasks?scan=` reads every form), which needs the network.

/** The 14-digit GTIN of `code`, or null when it is not one of the simple forms. */
export function gtinOf(code) {
  let text = code.trim().replace(/^\][A-Za-z][0-9]/, "").replace(/^\u001d/, "");
  if (/^\(01\)\d{14}/.test(text)) return text.slice(4, 18);
  if (/^\d{8}$|^\d{12,14}$/.test(text)) return text.padStart(14, "0");
  if (/^01\d{14}/.test(text)) return text.slice(2, 16);
  return null;
}
