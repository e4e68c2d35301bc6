// box2d3_chain: issue 25's chain figure in Box2D 3.1.1 — a chain of 50 links on revolute
// joints, pinned to the world at one end and holding a 100 kg box at the other, released
// horizontally so that it swings down; prints how far its joints come apart.
//
//   box2d3_chain [--steps N] [--links N]
//
// The same scene is built in Swift by Tests/Physics2DTests/SoftStepTests.swift
// (`fiftyLinkChainStretchesNoMoreThanBox2D3`), which holds Physics2D's soft step to the figure
// this prints. scripts/bench-physics.sh builds and runs it (CHAIN=0 skips it) with g++ -O2
// against the libbox2d.a the harness's build_v3.sh extracts; docs/physics.md has the figures.
//
// Scene: gravity (0, -10), dt 1/60, Box2D's default 4 sub-steps and joint softness. Links are
// 0.5 m x 0.1 m boxes of density 20 (1 kg), centres at x = 0.25 + 0.5 i, y = 30; joint i sits at
// x = 0.5 i (joint 0 to the static anchor body); the box (1 m x 1 m, density 100) hangs on the
// last joint at x = 25. No shape collides with another (negative group), so only the joints act.
//
// Output (one JSON object): "max_gap_m" (the largest, over the steps, of the sum over the joints
// of the distance between the joint's two anchor points), "end_gap_m" (that sum after the last
// step), "max_joint_gap_m" (the largest single joint's gap at any step), "end_box_drop_m" (how far
// below the anchor the box's centre ends), "steps", "links".
#include <box2d/box2d.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
    int steps = 600, links = 50;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--steps") == 0 && i + 1 < argc) steps = std::atoi(argv[++i]);
        else if (std::strcmp(argv[i], "--links") == 0 && i + 1 < argc) links = std::atoi(argv[++i]);
        else { std::fprintf(stderr, "usage: box2d3_chain [--steps N] [--links N]\n"); return 2; }
    }
    if (steps < 0 || links < 1) { std::fprintf(stderr, "steps must be >= 0 and links >= 1\n"); return 2; }

    b2WorldDef wd = b2DefaultWorldDef();
    wd.gravity = b2Vec2{0.0f, -10.0f};
    b2WorldId world = b2CreateWorld(&wd);

    b2BodyDef gd = b2DefaultBodyDef();
    gd.position = b2Vec2{0.0f, 30.0f};
    b2BodyId anchor = b2CreateBody(world, &gd);

    b2ShapeDef sd = b2DefaultShapeDef();
    sd.filter.groupIndex = -1;  // nothing collides: only the joints act
    sd.density = 20.0f;
    b2Polygon link = b2MakeBox(0.25f, 0.05f);

    struct Pin { b2BodyId a, b; b2Vec2 la, lb; };
    std::vector<Pin> pins;
    b2BodyId previous = anchor;
    b2Vec2 previousCentre = gd.position;
    for (int i = 0; i <= links; ++i) {
        bool box = i == links;
        b2BodyDef bd = b2DefaultBodyDef();
        bd.type = b2_dynamicBody;
        float jointX = 0.5f * i;
        bd.position = box ? b2Vec2{jointX + 0.5f, 30.0f} : b2Vec2{jointX + 0.25f, 30.0f};
        b2BodyId body = b2CreateBody(world, &bd);
        if (box) {
            b2ShapeDef heavy = sd;
            heavy.density = 100.0f;
            b2Polygon square = b2MakeBox(0.5f, 0.5f);
            b2CreatePolygonShape(body, &heavy, &square);
        } else {
            b2CreatePolygonShape(body, &sd, &link);
        }
        b2RevoluteJointDef jd = b2DefaultRevoluteJointDef();
        jd.bodyIdA = previous;
        jd.bodyIdB = body;
        b2Vec2 pivot{jointX, 30.0f};
        jd.localAnchorA = b2Sub(pivot, previousCentre);
        jd.localAnchorB = b2Sub(pivot, bd.position);
        b2CreateRevoluteJoint(world, &jd);
        pins.push_back(Pin{previous, body, jd.localAnchorA, jd.localAnchorB});
        previous = body;
        previousCentre = bd.position;
    }

    double maxGap = 0, maxJoint = 0, gap = 0;
    for (int s = 0; s < steps; ++s) {
        b2World_Step(world, 1.0f / 60.0f, 4);
        gap = 0;
        for (const Pin& p : pins) {
            b2Vec2 pa = b2Body_GetWorldPoint(p.a, p.la), pb = b2Body_GetWorldPoint(p.b, p.lb);
            double d = b2Distance(pa, pb);
            gap += d;
            if (d > maxJoint) maxJoint = d;
        }
        if (gap > maxGap) maxGap = gap;
    }
    b2Vec2 boxCentre = b2Body_GetPosition(previous);
    std::printf("{\"engine\": \"box2d3\", \"steps\": %d, \"links\": %d, \"max_gap_m\": %.6f, \"end_gap_m\": %.6f, "
                "\"max_joint_gap_m\": %.6f, \"end_box_drop_m\": %.6f}\n",
                steps, links, maxGap, gap, maxJoint, 30.0 - boxCentre.y);
    b2DestroyWorld(world);
    return 0;
}
