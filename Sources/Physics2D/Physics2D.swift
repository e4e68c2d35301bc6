// Physics2D: a 2D rigid-body engine (bodies, shapes, contacts, joints, queries).
//
// Not built yet: issue 8 (Physics2D) fills this module. See docs/playground.md.
