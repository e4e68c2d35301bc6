// Small inline SVG icons shared by the pages (built as DOM nodes, no markup strings).
import { svg } from "./dom.js";

/** An 18 px "play" triangle in the current text colour, hidden from screen readers
 *  (the button that holds it carries the label). */
export function playIcon() {
  return svg("svg", { viewBox: "0 0 24 24", width: 18, height: 18, "aria-hidden": "true", focusable: "false" },
    svg("path", { d: "M7 4.5v15L19.5 12z", fill: "currentColor" }));
}
