-- wrk script of scripts/bench-crowd: GET /api/crowd/locations at CROWD_RADIUS metres from
-- random points well inside the city, min 1, max 100, limit 20000 (so, with the server's
-- --crowd-min-group 1, every location in range is returned). Every answer must be 200; the
-- locations of each answer are counted and their mean printed (CROWD_COUNT, common.lua).
package.path = os.getenv("CROWD_LUA_DIR") .. "/?.lua;" .. package.path
local c = require("common")

setup = c.setup
done = c.done

function init(args)
    math.randomseed(os.time() * 1000 + (id or 0) * 7919 + math.floor(os.clock() * 1e6))
    non200, answers, locations, sample = 0, 0, 0, ""
end

function request()
    local lat, lon = c.point()
    local path = string.format("/api/crowd/locations?lat=%.7f&lon=%.7f&radius=%d&min=1&max=100&limit=20000",
        lat, lon, c.radius)
    return wrk.format("GET", path)
end

if c.counting then response = c.response end
