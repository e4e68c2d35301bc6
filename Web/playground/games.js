// The games the /playground/ host knows: for each, the index pg_start takes, the name the
// input log writes, its atlases (loaded before the first frame, in the order of the draw
// list's atlas numbers), its sound table, and how its own events (kinds other than 1, sound)
// show on the page. docs/playground.md lists each game's events; this table follows it.
import { SOUNDS } from "./sound.js";

export const SOUND_EVENT = 1;

/** What both CarWorld entries share: atlases, sounds, score and win (docs/playground.md,
 *  CarWorld's events: 2 the score changed (value: the new score; 0 after a win starts a new
 *  round), 3 the game is won (value: the score)). */
const CARWORLD = {
  titleKey: "playground.carworld.title",
  atlases: ["carworld", "round"],
  sounds: SOUNDS.carworld,
  /** The score shown from the start, before any event. */
  startScore: 0,
  score: (event) => (event.kind === 2 || event.kind === 3 ? event.value : null),
  won: (event) => event.kind === 3,
};

export const GAMES = [
  { index: 0, name: "carworld", ...CARWORLD },
  // CarWorld with CarWorldRules.crowded (50+ cars from about 40 s on): the game
  // `make bench-playground` measures the page's frame rate with (?game=carworld-crowded).
  { index: 1, name: "carworld-crowded", ...CARWORLD },
  // ShipWorld (docs/playground.md, "ShipWorld"): steered by tilt; tiltPad: the arrow keys and
  // the on-screen pad stand in for the sensor (playground.js). No score: kind 3 is the win.
  {
    index: 2,
    name: "shipworld",
    titleKey: "playground.shipworld.title",
    atlases: ["shipworld"],
    sounds: SOUNDS.shipworld,
    tiltPad: true,
    score: () => null,
    won: (event) => event.kind === 3,
  },
];

/** The game named name (the input log's word, ?game=), or undefined. */
export function gameNamed(name) {
  return GAMES.find((game) => game.name === name);
}
