// box2d3_workers: run a physics-scene/1 scene in Box2D 3.1.1 on N worker threads and print
// wall time per step (issue 25's "wall time per step with 2 workers" figure).
//
//   box2d3_workers SCENE.json [--workers N] [--steps N] [--warmup N] [--json] [--substeps N]
//
// The harness's box2d3_bench (../shared/physics-bench) is single-threaded: workerCount 1
// and no task system. This runner builds the world the same way (same defaults, 4
// sub-steps, continuous on, sleep as the scene says) but hands Box2D a task system:
// b2WorldDef.workerCount = N with enqueueTask/finishTask backed by the small fixed thread
// pool below. It reuses the harness's bench_common.hpp (scene loading, timing loop,
// stability figures, result object) from the harness copy that scripts/bench-physics.sh
// sets up, by include path; scripts/bench-physics.sh builds it with g++ -O2 against the
// libbox2d.a that the harness's build_v3.sh extracted from the pyb2d3 wheel.
//
// Thread pool: the calling thread is worker 0 and N-1 pool threads are workers 1..N-1,
// so a worker index is never used by two threads at once (Box2D keeps per-worker scratch
// data by that index). enqueueTask splits [0, itemCount) into at most N ranges of at
// least minRange items and queues them; finishTask lets the calling thread run queued
// ranges (any task's) until the task's ranges are all done. Nothing is ever run inside
// enqueueTask when N > 1: Box2D's solver enqueues N tasks that wait for each other, so
// each must be able to start on its own thread. With N = 1 there is no pool and every
// task runs at once inside enqueueTask (what Box2D does without a task system).
//
// Output: the runner contract's keys (SCENES.md) plus "workers". "ms_per_step" is wall
// time of each b2World_Step (steady clock), as in every runner. "cpu_ms_per_step_mean"
// is the CPU time of the whole process (every thread) per measured step, not of one
// thread as in the single-threaded runners ("cpu_clock" says so);
// "main_thread_cpu_ms_per_step_mean" is the calling thread's alone.
#include <box2d/box2d.h>

#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

#include "bench_common.hpp"

using bench::json;

namespace {

const char* kProg = "box2d3_workers";

b2Vec2 vec2(const json& j, const char* what) {
  if (!j.is_array() || j.size() != 2) bench::die(kProg, std::string("bad vec2 for ") + what);
  return b2Vec2{j[0].get<float>(), j[1].get<float>()};
}

bool anyDynamic(b2ShapeId a, b2ShapeId b) {
  return b2Body_GetType(b2Shape_GetBody(a)) == b2_dynamicBody || b2Body_GetType(b2Shape_GetBody(b)) == b2_dynamicBody;
}

double processCpuMs() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

class Pool {
 public:
  struct Task {
    int remaining = 0;  // guarded by the pool's mutex
  };

  explicit Pool(int workers) : workers_(workers) {
    for (int i = 1; i < workers; ++i) threads_.emplace_back([this, i] { loop((uint32_t)i); });
  }

  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    work_.notify_all();
    for (auto& t : threads_) t.join();
  }

  int workers() const { return workers_; }

  void* enqueue(b2TaskCallback* fn, int itemCount, int minRange, void* ctx) {
    if (workers_ == 1 || itemCount <= 0) {
      if (itemCount > 0) fn(0, itemCount, 0, ctx);
      return nullptr;
    }
    if (minRange < 1) minRange = 1;
    int parts = std::min(workers_, std::max(1, itemCount / minRange));
    Task* task;
    {
      std::lock_guard<std::mutex> lock(mu_);
      tasks_.push_back(std::make_unique<Task>());
      task = tasks_.back().get();
      task->remaining = parts;
      for (int p = 0; p < parts; ++p) {
        const int start = (int)((long)itemCount * p / parts), end = (int)((long)itemCount * (p + 1) / parts);
        queue_.push_back(Job{fn, start, end, ctx, task});
      }
    }
    if (parts == 1) work_.notify_one();
    else work_.notify_all();
    return task;
  }

  // The calling thread (worker 0) helps with queued ranges until `task` is done.
  void finish(void* handle) {
    Task* task = static_cast<Task*>(handle);
    std::unique_lock<std::mutex> lock(mu_);
    while (task->remaining > 0) {
      if (!queue_.empty()) {
        Job job = queue_.front();
        queue_.pop_front();
        lock.unlock();
        job.fn(job.start, job.end, 0, job.ctx);
        lock.lock();
        if (--job.task->remaining == 0) done_.notify_all();
      } else {
        done_.wait(lock);
      }
    }
  }

  // Called after each b2World_Step: every task of the step has been finished by then.
  void resetTasks() {
    std::lock_guard<std::mutex> lock(mu_);
    tasks_.clear();
  }

 private:
  struct Job {
    b2TaskCallback* fn;
    int start, end;
    void* ctx;
    Task* task;
  };

  void loop(uint32_t index) {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      work_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      Job job = queue_.front();
      queue_.pop_front();
      lock.unlock();
      job.fn(job.start, job.end, index, job.ctx);
      lock.lock();
      if (--job.task->remaining == 0) done_.notify_all();
    }
  }

  const int workers_;
  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable work_, done_;
  std::deque<Job> queue_;
  std::vector<std::unique_ptr<Task>> tasks_;  // one step's tasks
  bool stop_ = false;
};

void* enqueueTask(b2TaskCallback* fn, int itemCount, int minRange, void* taskContext, void* userContext) {
  return static_cast<Pool*>(userContext)->enqueue(fn, itemCount, minRange, taskContext);
}

void finishTask(void* userTask, void* userContext) { static_cast<Pool*>(userContext)->finish(userTask); }

// bench::report prints the result object on stdout; run it with stdout sent to a temporary
// file and return what it printed, so that "workers" and the CPU keys can be added.
std::string captureReport(const bench::Scene& sc, const bench::Run& r) {
  std::fflush(stdout);
  FILE* tmp = std::tmpfile();
  if (!tmp) bench::die(kProg, "tmpfile failed");
  const int saved = dup(1);
  dup2(fileno(tmp), 1);
  bench::report(sc, r, true);
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  std::string text;
  std::rewind(tmp);
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, tmp)) > 0) text.append(buf, n);
  std::fclose(tmp);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  int subSteps = 4, workers = 2;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && !std::strcmp(argv[i], "--substeps") && i + 1 < argc) subSteps = std::atoi(argv[++i]);
    else if (i > 0 && !std::strcmp(argv[i], "--workers") && i + 1 < argc) workers = std::atoi(argv[++i]);
    else rest.push_back(argv[i]);
  }
  if (workers < 1 || workers > 64) bench::die(kProg, "--workers wants 1..64");
  const bench::Args args = bench::parseArgs(kProg, (int)rest.size(), rest.data());
  const bench::Scene sc = bench::loadScene(kProg, args);
  const json& world = sc.doc.at("world");

  Pool pool(workers);
  auto tBuild0 = std::chrono::steady_clock::now();
  b2WorldDef wd = b2DefaultWorldDef();
  wd.gravity = vec2(world.at("gravity"), "gravity");
  wd.enableSleep = world.value("allow_sleep", false);
  wd.workerCount = workers;
  wd.enqueueTask = enqueueTask;
  wd.finishTask = finishTask;
  wd.userTaskContext = &pool;
  b2WorldId w = b2CreateWorld(&wd);

  std::vector<b2BodyId> dyn;
  size_t nBodies = 0;
  for (const json& jb : sc.doc.at("bodies")) {
    b2BodyDef bd = b2DefaultBodyDef();
    const std::string type = jb.at("type").get<std::string>();
    if (type == "static") bd.type = b2_staticBody;
    else if (type == "kinematic") bd.type = b2_kinematicBody;
    else if (type == "dynamic") bd.type = b2_dynamicBody;
    else bench::die(kProg, "unknown body type " + type);
    bd.position = vec2(jb.at("position"), "position");
    bd.rotation = b2MakeRot(jb.value("angle", 0.0f));
    if (jb.contains("linear_velocity")) bd.linearVelocity = vec2(jb["linear_velocity"], "linear_velocity");
    bd.angularVelocity = jb.value("angular_velocity", 0.0f);
    b2BodyId body = b2CreateBody(w, &bd);

    b2ShapeDef sd = b2DefaultShapeDef();
    sd.density = jb.value("density", 1.0f);
    sd.material.friction = jb.value("friction", 0.6f);
    sd.material.restitution = jb.value("restitution", 0.0f);
    sd.isSensor = jb.value("sensor", false);
    sd.enableSensorEvents = sc.countBegins;
    sd.enableContactEvents = sc.countBegins;

    const json& js = jb.at("shape");
    const std::string st = js.at("type").get<std::string>();
    if (st == "box") {
      b2Vec2 h = vec2(js.at("half_extents"), "half_extents");
      b2Polygon poly = b2MakeBox(h.x, h.y);
      b2CreatePolygonShape(body, &sd, &poly);
    } else if (st == "circle") {
      b2Circle c = {{0.0f, 0.0f}, js.at("radius").get<float>()};
      b2CreateCircleShape(body, &sd, &c);
    } else if (st == "polygon") {
      const json& vs = js.at("vertices");
      if (vs.size() < 3 || vs.size() > B2_MAX_POLYGON_VERTICES)
        bench::die(kProg, "polygon needs 3.." + std::to_string(B2_MAX_POLYGON_VERTICES) + " vertices");
      b2Vec2 v[B2_MAX_POLYGON_VERTICES];
      for (size_t i = 0; i < vs.size(); ++i) v[i] = vec2(vs[i], "vertex");
      b2Hull hull = b2ComputeHull(v, (int)vs.size());
      if (hull.count != (int)vs.size()) bench::die(kProg, "polygon is not strictly convex");
      b2Polygon poly = b2MakePolygon(&hull, 0.0f);
      b2CreatePolygonShape(body, &sd, &poly);
    } else {
      bench::die(kProg, "unknown shape type " + st);
    }
    ++nBodies;
    if (bd.type == b2_dynamicBody) dyn.push_back(body);
  }
  auto tBuild1 = std::chrono::steady_clock::now();

  bench::Run r;
  const b2Version v = b2GetVersion();
  char ver[32];
  std::snprintf(ver, sizeof ver, "%d.%d.%d", v.major, v.minor, v.revision);
  r.engine = "box2d3";
  r.version = ver;
  r.detail = std::string("Box2D ") + ver + " C (static lib from the pyb2d3 wheel; box2d3_workers g++ -O2)";
  r.solver = "b2World_Step(dt, subStepCount=" + std::to_string(subSteps) + "); " + std::to_string(workers) +
             " worker(s) (Benchmarks/physics/box2d3_workers.cpp thread pool); continuous on; sleep " +
             (world.value("allow_sleep", false) ? "on" : "off");
  r.nBodies = nBodies;
  r.buildMs = std::chrono::duration<double, std::milli>(tBuild1 - tBuild0).count();

  const float dt = (float)sc.dt;
  // Contact-begin events, counted as in box2d3_bench (SCENES.md "Events"): contact and
  // sensor begins, as unordered shape pairs de-duplicated within a step, only pairs with a
  // dynamic body. Read after the step, outside the timed call.
  long begins = 0;
  std::set<std::pair<uint64_t, uint64_t>> seen;
  auto addPair = [&](b2ShapeId a, b2ShapeId b) {
    if (!anyDynamic(a, b)) return;
    uint64_t ka = b2StoreShapeId(a), kb = b2StoreShapeId(b);
    if (ka > kb) std::swap(ka, kb);
    if (seen.insert({ka, kb}).second) ++begins;
  };
  long stepIndex = 0;
  double pcpu0 = processCpuMs(), pcpu1 = pcpu0;
  bench::timedLoop(
      sc, r,
      [&] {
        if (stepIndex == sc.warmup) pcpu0 = processCpuMs();
        b2World_Step(w, dt, subSteps);
        pool.resetTasks();
        ++stepIndex;
        if (stepIndex == sc.steps) pcpu1 = processCpuMs();
        if (sc.countBegins) {
          seen.clear();
          const b2ContactEvents ce = b2World_GetContactEvents(w);
          for (int i = 0; i < ce.beginCount; ++i) addPair(ce.beginEvents[i].shapeIdA, ce.beginEvents[i].shapeIdB);
          const b2SensorEvents se = b2World_GetSensorEvents(w);
          for (int i = 0; i < se.beginCount; ++i)
            addPair(se.beginEvents[i].sensorShapeId, se.beginEvents[i].visitorShapeId);
        }
      },
      [&](std::vector<bench::BodyState>& out) {
        out.resize(dyn.size());
        for (size_t i = 0; i < dyn.size(); ++i) {
          const b2BodyId b = dyn[i];
          const b2Vec2 p = b2Body_GetPosition(b), lv = b2Body_GetLinearVelocity(b);
          bench::BodyState& s = out[i];
          s.x = p.x; s.y = p.y; s.a = b2Rot_GetAngle(b2Body_GetRotation(b));
          s.vx = lv.x; s.vy = lv.y; s.w = b2Body_GetAngularVelocity(b);
          s.mass = b2Body_GetMass(b);
          s.icm = b2Body_GetRotationalInertia(b);
        }
      });
  b2DestroyWorld(w);
  r.begins = begins;

  const long measured = sc.steps - sc.warmup;
  const double mainCpu = measured > 0 ? r.cpuMeasuredMs / (double)measured : NAN;
  r.cpuMeasuredMs = pcpu1 - pcpu0;  // report() divides by the measured steps
  json out = json::parse(captureReport(sc, r));
  out["workers"] = workers;
  out["cpu_clock"] = "process (all threads)";
  out["main_thread_cpu_ms_per_step_mean"] = mainCpu;
  if (args.asJson) {
    std::printf("%s\n", out.dump().c_str());
  } else {
    const json& ms = out["ms_per_step"];
    std::printf("engine      %s\n", r.detail.c_str());
    std::printf("scene       %s: %zu bodies, %ld steps, warm-up %ld; solver: %s\n", sc.name.c_str(), nBodies,
                sc.steps, sc.warmup, r.solver.c_str());
    std::printf("wall/step   mean %.4f  p50 %.4f  p95 %.4f ms (n=%ld)\n", ms["mean"].get<double>(),
                ms["p50"].get<double>(), ms["p95"].get<double>(), ms["n"].get<long>());
    std::printf("cpu/step    %.4f ms all threads, %.4f ms calling thread\n",
                out["cpu_ms_per_step_mean"].get<double>(), mainCpu);
    std::printf("stability   %s\n", out["stability"].dump().c_str());
  }
  return 0;
}
