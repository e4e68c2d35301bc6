// DOM helpers shared by the pages: find, build (text only, never HTML) and announce.
//
//   import { $, el, announce } from "/common/dom.js";
//   $("#list").replaceChildren(...songs.map((s) => el("li", { class: "song" }, s.title)));
//   announce(plural("library.count.songs", songs.length));

const SVG = "http://www.w3.org/2000/svg";

/** The first element that matches selector (under root, the document by default), or null. */
export const $ = (selector, root = document) => root.querySelector(selector);

/** Sets attributes on node: "class" sets className, "text" the text, "onX" adds an X listener;
 *  undefined, null and false skip an attribute, true sets it empty. */
function setAttributes(node, attributes) {
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
}

/** Appends children (arrays are flattened); nodes as they are, anything else as a text node
 *  (never parsed as HTML); undefined, null and false are skipped. */
function appendChildren(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Creates an HTML element: el("a", { href: "#", class: "x" }, "text", child). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  setAttributes(node, attributes);
  appendChildren(node, children);
  return node;
}

/** Creates an SVG element, as el() does: svg("path", { d: "M0,0 L1,1", fill: "none" }). */
export function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  setAttributes(node, attributes);
  appendChildren(node, children);
  return node;
}

/** The page's one visually hidden status line, made by page.js before anything is said. */
function announcer() {
  let node = document.querySelector("#announcer");
  if (!node) {
    node = el("p", { id: "announcer", class: "visually-hidden", role: "status" });
    document.body.append(node);
  }
  return node;
}

/** Tells screen readers a short result ("12 songs found"), without showing it: for results
 *  that appear where focus is not. Announce results, never whole lists or views. */
export function announce(text) {
  const node = announcer();
  node.textContent = "";
  // A new text in a later task, so the same text said twice is announced twice.
  setTimeout(() => { node.textContent = text; }, 50);
}

/** Makes the announcer (page.js calls it at load: a live region must exist before it speaks). */
export function addAnnouncer() {
  announcer();
}
