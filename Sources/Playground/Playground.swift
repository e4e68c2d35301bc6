// Playground: the children's story-game (cars at traffic lights, a tilting ship, fish).
//
// Not built yet: a later Playground issue fills this module. See docs/playground.md.
