// Small inline SVG icons shared by the pages (built as DOM nodes, no markup strings).

const SVG = "http://www.w3.org/2000/svg";

/** An 18 px "play" triangle in the current text colour, hidden from screen readers
 *  (the button that holds it carries the label). */
export function playIcon() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "18");
  svg.setAttribute("height", "18");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", "M7 4.5v15L19.5 12z");
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}
