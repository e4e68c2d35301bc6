// box2d3_column: issue 25's mass-ratio column in Box2D 3.1.1 — 20 boxes (1 m) stacked in one
// column on the ground, densities alternating 1 and RATIO from the bottom (1:RATIO between
// neighbours), 600 steps of 1/60 s with Box2D's default 4 sub-steps, no sleep.
//
//   box2d3_column [RATIO]        (default 100)
//
// Prints one JSON object: "ratio", "max_dx_m" (the largest sideways displacement of a box),
// "max_dy_m" (the largest vertical one), "top_drop_m" (how far the top box ended below its
// start). The same column in Physics2D is SoftStepTests' `columnOfTwentyStands`.
// scripts/bench-physics.sh builds it with g++ -O2 against the libbox2d.a the harness's
// build_v3.sh extracts and runs it for ratios 1, 10 and 100 (CHAIN=0 skips it with the chain).
#include <box2d/box2d.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    float ratio = argc > 1 ? std::strtof(argv[1], nullptr) : 100.0f;
    if (!(ratio > 0.0f)) { std::fprintf(stderr, "usage: box2d3_column [RATIO > 0]\n"); return 2; }
    b2WorldDef wd = b2DefaultWorldDef();
    wd.gravity = b2Vec2{0.0f, -10.0f};
    wd.enableSleep = false;
    b2WorldId world = b2CreateWorld(&wd);
    b2BodyDef gd = b2DefaultBodyDef();
    gd.position = b2Vec2{0.0f, -0.5f};
    b2BodyId ground = b2CreateBody(world, &gd);
    b2ShapeDef sd = b2DefaultShapeDef();
    b2Polygon slab = b2MakeBox(40.0f, 0.5f);
    b2CreatePolygonShape(ground, &sd, &slab);
    b2BodyId boxes[20];
    for (int i = 0; i < 20; ++i) {
        b2BodyDef bd = b2DefaultBodyDef();
        bd.type = b2_dynamicBody;
        bd.position = b2Vec2{0.0f, 0.5f + i};
        boxes[i] = b2CreateBody(world, &bd);
        b2ShapeDef s = b2DefaultShapeDef();
        s.density = i % 2 == 0 ? 1.0f : ratio;
        s.material.friction = 0.6f;
        b2Polygon square = b2MakeBox(0.5f, 0.5f);
        b2CreatePolygonShape(boxes[i], &s, &square);
    }
    for (int step = 0; step < 600; ++step) b2World_Step(world, 1.0f / 60.0f, 4);
    double maxDx = 0, maxDy = 0;
    for (int i = 0; i < 20; ++i) {
        b2Vec2 p = b2Body_GetPosition(boxes[i]);
        maxDx = std::fmax(maxDx, std::fabs(p.x));
        maxDy = std::fmax(maxDy, std::fabs(p.y - (0.5f + i)));
    }
    std::printf("{\"engine\": \"box2d3\", \"ratio\": %g, \"max_dx_m\": %.6f, \"max_dy_m\": %.6f, \"top_drop_m\": %.6f}\n",
                ratio, maxDx, maxDy, 19.5 - b2Body_GetPosition(boxes[19]).y);
    b2DestroyWorld(world);
    return 0;
}
