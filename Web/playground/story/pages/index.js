// The story's touch pages (docs/playground.md, "Touch pages"): id → page module, each
// `{ id, mount(root, api) }` → `{ start(), destroy() }`. The seven story pages in story order,
// then the two bonus pages of the Loot.
import wake from "./wake.js";
import puzzle from "./puzzle.js";
import balloons from "./balloons.js";
import colouring from "./colouring.js";
import shapes from "./shapes.js";
import bells from "./bells.js";
import stars from "./stars.js";
import bubbles from "./bubbles.js";
import garden from "./garden.js";

export const TOUCH_PAGES = Object.freeze({ wake, puzzle, balloons, colouring, shapes, bells, stars, bubbles, garden });
export default TOUCH_PAGES;
