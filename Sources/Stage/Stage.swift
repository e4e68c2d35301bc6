// Stage: sprites, a display tree and tweens on top of Physics2D for the Playground games.
//
// Not built yet: a later Playground issue fills this module. See docs/playground.md.
