// Building the screen: elements from a tag, attributes and children. Text always goes in as
// text nodes (never parsed as HTML), so a product's name or a server's message cannot inject markup.

/** An element `tag` with `attrs` (on* names become listeners) and `children` (strings become text). */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") element.addEventListener(name.slice(2), value);
    else if (name === "class") element.className = value;
    else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces the main area's content with `children` and marks the screen ready. */
export function show(title, ...children) {
  const main = document.getElementById("main");
  main.removeAttribute("data-ready");
  main.replaceChildren(h("h1", { id: "title" }, title));
  append(main, children);
  document.title = title + " – ItemAudit";
  main.setAttribute("data-ready", "");
}

/** A short message in the live region at the top of the screen. */
export function announce(text, kind = "info") {
  const region = document.getElementById("notice");
  if (!region) return;
  region.className = "notice " + kind;
  region.textContent = text;
}
