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
  // FishWorld (docs/playground.md, "FishWorld"): the bar counts the fish at home. Events: 2 the
  // number of fish home changed (value; 0 when a new round starts), 3 every fish is home (value 9).
  {
    index: 3,
    name: "fishworld",
    titleKey: "playground.fishworld.title",
    atlases: ["fishworld"],
    sounds: SOUNDS.fishworld,
    startScore: 0,
    // Kind 3 carries the count too (9): the bar shows it again with "You won!".
    score: (event) => (event.kind === 2 || event.kind === 3 ? event.value : null),
    won: (event) => event.kind === 3,
  },
  // The story's sweater pile (docs/playground.md, "The sweater pile"): ?game=sweaters&seed=N
  // drops N sweaters (0–10); events 2 a sweater landed (value: how many have), 3 everything
  // rests (value: the count), 4 the tenth toppled the pile.
  {
    index: 4,
    name: "sweaters",
    titleKey: "playground.sweaters.title",
    atlases: ["sweaters"],
    sounds: SOUNDS.sweaters,
    startScore: 0,
    score: (event) => (event.kind === 2 ? event.value : null),
    won: (event) => event.kind === 3,
  },
];

/** The game named name (the input log's word, ?game=), or undefined. */
export function gameNamed(name) {
  return GAMES.find((game) => game.name === name);
}
