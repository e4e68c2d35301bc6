-- Shared by the wrk scripts of scripts/bench-crowd: the city, random points in it, the
-- per-thread counters (non-200 answers, locations per answer) and the summary line that
-- scripts/bench_crowd_report.py reads. Settings come from the environment:
--   CROWD_LAT, CROWD_LON  the city's centre
--   CROWD_HALF            half the side (m) of the square the random points are drawn from
--   CROWD_DEVICES         devices sim-<seed>-0 … sim-<seed>-(N-1) exist (reports only)
--   CROWD_SEED            the simulator's seed (its tokens are sim-<seed>-<index>)
--   CROWD_RADIUS          the search radius in metres (searches only)
--   CROWD_COUNT           1 (default): a response() function checks every answer's status and
--                         counts its locations; 0: no response() (wrk then neither copies the
--                         bodies nor calls Lua per answer: the throughput runs), and the status of
--                         every answer is checked from wrk's own count of statuses over 399
--   CROWD_POOL            requests prepared per thread before the run (reports; default 250000):
--                         more than a thread sends, so no device is sent to the same point twice
local M = {}

M.lat = tonumber(os.getenv("CROWD_LAT") or "45.4642")
M.lon = tonumber(os.getenv("CROWD_LON") or "9.19")
M.half = tonumber(os.getenv("CROWD_HALF") or "5000")
M.devices = tonumber(os.getenv("CROWD_DEVICES") or "1000")
M.seed = os.getenv("CROWD_SEED") or "1"
M.radius = tonumber(os.getenv("CROWD_RADIUS") or "200")
M.counting = (os.getenv("CROWD_COUNT") or "1") ~= "0"
M.pool = tonumber(os.getenv("CROWD_POOL") or "250000")

local R = 6371008.8
-- A point uniformly in the square of half-side M.half around the centre (local tangent plane,
-- as the simulator places its people).
function M.point()
    local north = (math.random() * 2 - 1) * M.half
    local east = (math.random() * 2 - 1) * M.half
    local lat = M.lat + north / R * 180 / math.pi
    local lon = M.lon + east / (R * math.cos(M.lat * math.pi / 180)) * 180 / math.pi
    return lat, lon
end

M.threads = {}

-- wrk calls setup once per thread in the main Lua state: keep the threads to read their
-- counters in done().
function M.setup(thread)
    thread:set("id", #M.threads + 1)
    table.insert(M.threads, thread)
end

-- The summary: one line "BENCH {json}" (latency in microseconds) plus a readable line.
function M.done(summary, latency, requests)
    local non200, answers, locations, samples = 0, 0, 0, {}
    for _, t in ipairs(M.threads) do
        non200 = non200 + (t:get("non200") or 0)
        answers = answers + (t:get("answers") or 0)
        locations = locations + (t:get("locations") or 0)
        local s = t:get("sample")
        if s and s ~= "" and #samples < 5 then table.insert(samples, s) end
    end
    local e = summary.errors
    local sockerr = e.connect + e.read + e.write + e.timeout
    local mean = answers > 0 and locations / answers or 0
    io.write(string.format(
        "BENCH {\"requests\":%d,\"duration_us\":%d,\"bytes\":%d,\"p50_us\":%d,\"p90_us\":%d,\"p99_us\":%d," ..
        "\"max_us\":%d,\"mean_us\":%.1f,\"non200\":%d,\"socket_errors\":%d,\"status_errors\":%d," ..
        "\"answers_counted\":%d,\"mean_locations\":%.1f,\"counting\":%s}\n",
        summary.requests, summary.duration, summary.bytes,
        latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean,
        non200, sockerr, e.status, answers, mean, tostring(M.counting)))
    io.write(string.format("non-200 answers: %d; socket errors: %d; mean locations per answer: %.1f\n",
        non200, sockerr, mean))
    for _, s in ipairs(samples) do io.write("  a non-200 answer: " .. s .. "\n") end
end

-- The response() of both scripts: every answer must be 200; the locations are counted.
function M.response(status, headers, body)
    if status ~= 200 then
        non200 = non200 + 1
        if sample == "" then sample = status .. " " .. string.gsub(string.sub(body or "", 1, 200), "%s+", " ") end
        return
    end
    answers = answers + 1
    local _, n = string.gsub(body, '"distance_m"', "")
    locations = locations + n
end

return M
